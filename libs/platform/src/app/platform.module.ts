import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { ServiceName } from '@pp/contracts';
import type { NatsConnection } from 'nats';
import type { BaseConfig } from '../config/config-schemas';
import { healthControllerFor } from '../health/health.controller';
import { HealthService } from '../health/health.service';
import { JsonLogger } from '../logging/json-logger';
import type { BusMetrics } from '../metrics/bus-metrics';
import { ServiceMetrics } from '../metrics/service-metrics';
import { BusClient } from '../nats/bus-client';
import { CONFIG, NATS_CONNECTION } from './tokens';

export interface PlatformDeps {
  service: ServiceName;
  config: BaseConfig;
  nc: NatsConnection;
  logger: JsonLogger;
  metrics: ServiceMetrics;
  /** The bus series, shared by this service's client and transport. */
  bus: BusMetrics;
}

/** What every service gets: its config, logger, NATS connection, bus client, metrics registry and health answer. */
@Global()
@Module({})
export class PlatformModule {
  static forService({ service, config, nc, logger, metrics, bus }: PlatformDeps): DynamicModule {
    return {
      module: PlatformModule,
      controllers: [healthControllerFor(service)],
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: NATS_CONNECTION, useValue: nc },
        { provide: JsonLogger, useValue: logger },
        { provide: HealthService, useValue: new HealthService(service) },
        { provide: BusClient, useValue: new BusClient(nc, config.PP_NAMESPACE, config.NATS_REQUEST_TIMEOUT_MS, bus) },
        { provide: ServiceMetrics, useValue: metrics },
      ],
      exports: [CONFIG, NATS_CONNECTION, JsonLogger, HealthService, BusClient, ServiceMetrics],
    };
  }
}
