import type { INestApplicationContext, Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { ServiceName } from '@pp/contracts';
import type { BaseConfig } from '../config/config-schemas';

/** Everything startService needs to know of a service: its name and config class, then its parts. */
export type ServiceDefinition<C extends BaseConfig> = ServiceBasics<C> & ServiceParts<C>;

export interface ServiceBasics<C extends BaseConfig> {
  name: ServiceName;
  config: new () => C;
}

/** A service beyond its configuration (an app's service-parts.ts): its module, and either its HTTP set-up or its metrics port. */
export type ServiceParts<C extends BaseConfig> = {
  /** The app's root module; providers read the config through the CONFIG token. */
  module: Type<unknown>;
} & (
  | { http: HttpDefinition<C>; metricsPort?: never }
  | {
      http?: never;
      /** A service without an HTTP port answers GET /metrics on this one (METRICS_PORT); web apps answer it on theirs. */
      metricsPort: (config: C) => number;
    }
);

export interface HttpDefinition<C extends BaseConfig> {
  port: (config: C) => number;
  /** Fastify options that must be set before the app is created (body limit, ...). */
  bodyLimit?: number;
  configure?: (app: NestFastifyApplication, config: C) => void | Promise<void>;
}

export interface RunningService {
  name: ServiceName;
  app: INestApplicationContext;
  /** The bound HTTP port for web apps (useful when configured as 0). */
  port?: number;
  /** The bound METRICS_PORT of a service without HTTP. */
  metricsPort?: number;
  stop(): Promise<void>;
}
