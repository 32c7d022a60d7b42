import { ConfigError, type Env } from '../config/load-config';
import type { BaseConfig } from '../config/config-schemas';
import { stopTelemetry } from '../telemetry/start-telemetry';
import { releaseUnusedMemory, watchIdleMemory } from '../memory';
import type { ServiceDefinition } from './service-definition';
import { startService } from './start-service';

/**
 * The whole of an app's main.ts: start the service, give back the memory
 * start-up no longer needs (and, from then on, what work leaves once the
 * service goes quiet), tell a parent process (the launcher or the test
 * harness) that it is ready, stop cleanly on SIGTERM or SIGINT. A bad
 * configuration or unreachable infrastructure ends the process with one
 * clear line naming the problem.
 */
export function runService<C extends BaseConfig>(definition: ServiceDefinition<C>, env: Env = process.env): void {
  const fail = (what: string, error: unknown): never => {
    const detail =
      error instanceof ConfigError
        ? `configuration error: ${error.problems.join('; ')}`
        : error instanceof Error
          ? error.message
          : String(error);
    process.stderr.write(`[${definition.name}] ${what}: ${detail}\n`);
    if (!(error instanceof ConfigError) && error instanceof Error && process.env.LOG_LEVEL === 'debug') {
      process.stderr.write(`${error.stack}\n`);
    }
    process.exit(1);
  };

  startService(definition, env).then(
    (running) => {
      releaseUnusedMemory();
      const stopWatchingMemory = watchIdleMemory();
      process.send?.({ type: 'ready', service: definition.name, port: running.port, metricsPort: running.metricsPort });
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        stopWatchingMemory();
        process.stdout.write(
          JSON.stringify({ time: new Date().toISOString(), level: 'info', service: definition.name, msg: `stopping on ${signal}` }) + '\n',
        );
        running
          .stop()
          .then(stopTelemetry)
          .then(
            () => process.exit(0),
            (error) => fail('stop failed', error),
          );
      };
      process.on('SIGTERM', () => stop('SIGTERM'));
      process.on('SIGINT', () => stop('SIGINT'));
    },
    (error) => fail('failed to start', error),
  );
  process.on('unhandledRejection', (error) => fail('unhandled rejection', error));
}
