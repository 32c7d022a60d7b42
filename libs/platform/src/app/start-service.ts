import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { INestMicroservice } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { NatsConnection } from 'nats';
import type { BaseConfig } from '../config/config-schemas';
import { trustedProxyList } from '../config/trusted-proxies';
import { HealthService } from '../health/health.service';
import { podReadiness } from '../health/pod-readiness';
import { boundStop } from '../http/bounded-stop';
import { answerFrameworkError } from '../http/framework-error.handler';
import { answerMalformedRequests } from '../http/malformed-request.handler';
import { limitRequestBodyTime } from '../http/request-deadline';
import { JsonLogger } from '../logging/json-logger';
import { BusMetrics } from '../metrics/bus-metrics';
import { serveHttpMetrics } from '../metrics/http-metrics';
import { startMetricsServer } from '../metrics/metrics-server';
import { watchNatsTraffic } from '../metrics/nats-traffic';
import { ServiceMetrics } from '../metrics/service-metrics';
import { BusExceptionFilter } from '../nats/bus-exception.filter';
import { BusValidationPipe } from '../nats/bus-validation.pipe';
import { connectNats } from '../nats/connect-nats';
import { NatsBusServer } from '../nats/nats-bus-server';
import { startTelemetry } from '../telemetry/start-telemetry';
import { cacheValidationMetadata } from '../validation/validation-metadata-cache';
import { PlatformModule } from './platform.module';
import type { RunningService, ServiceDefinition } from './service-definition';

@Module({})
class ServiceRootModule {}

/**
 * Boots one service with its validated config (loadConfig): connects to NATS, builds the Nest
 * app (HTTP on Fastify for web apps, whose router and socket-level errors are
 * answered as `{ "error": string }` too) and attaches the bus transport so the
 * service answers its commands, queries and health request. Prometheus
 * metrics answer at GET /metrics: on the web apps' port, otherwise on
 * METRICS_PORT, beside the pod's probes (GET /livez, GET /readyz).
 */
export async function startService<C extends BaseConfig>(definition: ServiceDefinition<C>, config: C): Promise<RunningService> {
  cacheValidationMetadata();
  const logger = new JsonLogger(definition.name, config.LOG_LEVEL);
  startTelemetry(definition.name, config.OTEL_EXPORTER_OTLP_ENDPOINT);
  const nc = await connectNats(config.NATS_URL, definition.name, config.NATS_CREDS);
  const metrics = new ServiceMetrics(definition.name);
  const bus = new BusMetrics(metrics);
  watchNatsTraffic(metrics, nc);
  try {
    const root = {
      module: ServiceRootModule,
      imports: [PlatformModule.forService({ service: definition.name, config, nc, logger, metrics, bus }), definition.module],
    };
    const transport = new NatsBusServer({
      nc,
      prefix: config.PP_NAMESPACE,
      service: definition.name,
      metrics: bus,
    });
    const { http } = definition;
    if (http) {
      // Loaded here, not at the top: the services without an HTTP port never load Fastify (a third of a second of start-up).
      const { FastifyAdapter } = await import('@nestjs/platform-fastify');
      // For the apps whose config has it (WithHttpTimeouts): headers within the limit, the body within as long again.
      const requestLimitMs = (config as BaseConfig & { HTTP_REQUEST_TIMEOUT_MS?: number }).HTTP_REQUEST_TIMEOUT_MS;
      const app = await NestFactory.create<NestFastifyApplication>(
        root,
        new FastifyAdapter({
          bodyLimit: http.bodyLimit ?? 1_048_576,
          frameworkErrors: answerFrameworkError,
          trustProxy: trustedProxies(config),
          ...headerTimeouts(requestLimitMs),
        }),
        { logger, abortOnError: false },
      );
      answerMalformedRequests(app.getHttpServer());
      if (requestLimitMs !== undefined) limitRequestBodyTime(app.getHttpAdapter().getInstance(), requestLimitMs);
      serveHttpMetrics(app.getHttpAdapter().getInstance(), metrics);
      await http.configure?.(app, config);
      configureBus(app.connectMicroservice({ strategy: transport }, { inheritAppConfig: false, deferInitialization: true }), logger, transport);
      await app.startAllMicroservices();
      await app.listen(http.port(config), '0.0.0.0');
      const address = app.getHttpServer().address();
      const port = typeof address === 'object' && address ? address.port : undefined;
      const beginStop = boundStop(app.getHttpServer());
      const stop = async () => {
        const stopped = beginStop();
        // The bus requests under way first: a web app's close destroys its modules before it closes the transport.
        await transport
          .close()
          .then(() => closeAll(app, nc))
          .finally(stopped);
      };
      return { name: definition.name, app, port, stop };
    }
    const app = await NestFactory.createMicroservice(root, { strategy: transport, logger, abortOnError: false });
    configureBus(app, logger, transport);
    await app.listen();
    const health = app.get(HealthService);
    const server = await startMetricsServer(metrics, definition.metricsPort(config), () => podReadiness(health, nc)).catch(async (error: Error) => {
      await app.close();
      throw new Error(`METRICS_PORT ${definition.metricsPort(config)} cannot be used: ${error.message}`);
    });
    return { name: definition.name, app, metricsPort: server.port, stop: () => server.close().then(() => closeAll(app, nc)) };
  } catch (error) {
    await nc.close();
    throw error;
  }
}

/**
 * Fastify's trustProxy from TRUSTED_PROXIES, for the apps whose config has it
 * (WithTrustedProxies). Without it, or with `none`, no proxy is trusted:
 * request.ip is the socket's address and X-Forwarded-For is ignored.
 */
function trustedProxies(config: BaseConfig & { TRUSTED_PROXIES?: string }): string[] | false {
  const list = config.TRUSTED_PROXIES === undefined ? [] : trustedProxyList(config.TRUSTED_PROXIES);
  return list.length > 0 ? list : false;
}

/**
 * Node's limit on the time to send a request's headers (Fastify's default is
 * none). Node looks for overdue requests every connectionsCheckingInterval
 * (its default, 30 s, would let one run up to that much past the limit); an
 * overdue one is answered 408 (answerMalformedRequests). Node stops counting
 * once a request reaches the app: limitRequestBodyTime covers the body.
 */
function headerTimeouts(limitMs: number | undefined): { requestTimeout?: number; http?: { connectionsCheckingInterval: number } } {
  return limitMs === undefined ? {} : { requestTimeout: limitMs, http: { connectionsCheckingInterval: Math.min(1000, limitMs) } };
}

function configureBus(app: INestMicroservice, logger: JsonLogger, transport: NatsBusServer): void {
  app.useGlobalFilters(new BusExceptionFilter(logger));
  app.useGlobalPipes(new BusValidationPipe());
  // A subscription refused after start-up (a reconnect under narrower permissions) leaves its subject unserved for
  // good: the health says so, where the log line alone would leave the replica ready.
  app.get(HealthService).register('nats-subscriptions', () => transport.subscribed());
}

async function closeAll(app: { close(): Promise<void> }, nc: NatsConnection): Promise<void> {
  await app.close();
  if (!nc.isClosed()) await nc.drain();
}
