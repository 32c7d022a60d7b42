import type { BaseConfig } from '../config/config-schemas';
import { ConfigError, type Env, loadConfig } from '../config/load-config';
import { releaseUnusedMemory, watchIdleMemory } from '../memory';
import type { ServiceBasics, ServiceDefinition, ServiceParts } from '../app/service-definition';

/** What an app's main.ts gives runService: its name and config class, and how to load the rest of its definition. */
export interface ServiceEntry<C extends BaseConfig> extends ServiceBasics<C> {
  /**
   * The rest of the definition (module, HTTP set-up or metrics port), from the
   * app's service-parts.ts: loaded only once the configuration is valid, so a
   * bad one is reported before the 1,700-2,400 modules of a service load
   * (about 0.3 s instead of 1.5-2.5 s).
   */
  parts: () => Promise<ServiceParts<C>>;
}

/**
 * The whole of an app's main.ts: check the configuration, start the service,
 * give back the memory start-up no longer needs (and, from then on, what
 * work leaves once the service goes quiet), tell a parent process (the
 * launcher or the test harness) that it is ready, stop cleanly on SIGTERM or
 * SIGINT. A bad configuration or unreachable infrastructure ends the process
 * with one clear line naming the problem.
 */
export function runService<C extends BaseConfig>(entry: ServiceEntry<C>, env: Env = process.env): void {
  const fail = (what: string, error: unknown): never => {
    const detail =
      error instanceof ConfigError
        ? `configuration error: ${error.problems.join('; ')}`
        : error instanceof Error
          ? error.message
          : String(error);
    process.stderr.write(`[${entry.name}] ${what}: ${detail}\n`);
    if (!(error instanceof ConfigError) && error instanceof Error && process.env.LOG_LEVEL === 'debug') {
      process.stderr.write(`${error.stack}\n`);
    }
    process.exit(1);
  };

  start(entry, env).then(
    ({ running, stopTelemetry }) => {
      releaseUnusedMemory();
      const stopWatchingMemory = watchIdleMemory();
      process.send?.({ type: 'ready', service: entry.name, port: running.port, metricsPort: running.metricsPort });
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        stopWatchingMemory();
        process.stdout.write(JSON.stringify({ time: new Date().toISOString(), level: 'info', service: entry.name, msg: `stopping on ${signal}` }) + '\n');
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

async function start<C extends BaseConfig>(entry: ServiceEntry<C>, env: Env) {
  const config = loadConfig(entry.config, env); // throws ConfigError before anything else loads
  const [{ startService }, { stopTelemetry }, parts] = await Promise.all([import('../app/start-service'), import('../telemetry/start-telemetry'), entry.parts()]);
  const definition: ServiceDefinition<C> = { ...parts, name: entry.name, config: entry.config };
  const running = await startService(definition, config);
  return { running, stopTelemetry };
}
