import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, Validate, ValidateIf } from 'class-validator';
import { HasNoWeakPassword } from '../crypto/secret-strength';
import type { ConfigClass } from './config-mixin';
import { NatsIdentityRule } from './nats-identity.rule';

/*
 * Building blocks for each app's config class. Every app composes the blocks
 * it needs (BaseConfig, then WithDatabase, WithRedis, WithHttp ...), so the
 * same variable has the same name and rules everywhere (PRODUCT-RULES §D4).
 */

export const toInt = ({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value);
export const toBool = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;

export class BaseConfig {
  /**
   * The kind of deployment: `production` (the image sets it) refuses
   * settings meant only for development and tests (DevelopmentOnly).
   */
  @IsOptional()
  @IsString()
  NODE_ENV?: string;

  @Matches(/^nats:\/\/[^\s]+$/, { message: 'must be a nats:// URL, e.g. nats://127.0.0.1:4222' })
  @HasNoWeakPassword()
  NATS_URL!: string;

  /**
   * A NATS credentials file (user JWT and seed) for servers that use
   * decentralized auth; otherwise the identity is NATS_URL's user and password.
   * One of the two is required: the bus refuses anonymous connections.
   */
  @ValidateIf(() => true)
  @Validate(NatsIdentityRule)
  NATS_CREDS?: string;

  /**
   * Prepended to every NATS subject and stream, BullMQ queue and Redis key, so
   * several deployments or test runs can share one NATS and one Redis.
   */
  @IsOptional()
  @Matches(/^[a-z0-9_-]*$/, { message: 'may hold only a-z, 0-9, _ and -' })
  PP_NAMESPACE = '';

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of milliseconds' })
  @Min(50)
  @Max(60_000)
  NATS_REQUEST_TIMEOUT_MS = 5000;

  @IsOptional()
  @IsIn(['debug', 'info', 'warn', 'error'], { message: 'must be one of debug, info, warn, error' })
  LOG_LEVEL: 'debug' | 'info' | 'warn' | 'error' = 'info';

  @IsOptional()
  @Matches(/^https?:\/\/[^\s]+$/, { message: 'must be an http(s) URL of an OTLP/HTTP collector' })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
}

export function WithDatabase<T extends ConfigClass>(Base: T) {
  class DatabaseConfig extends Base {
    @Matches(/^postgres(ql)?:\/\/[^\s]+$/, { message: "must be a postgres:// URL logging in as the service's own role, e.g. postgres://pp_ledger:<password>@127.0.0.1:5432/pp" })
    @HasNoWeakPassword()
    DATABASE_URL!: string;

    /**
     * Connections each process may open. Replicas multiply it: keep the sum over every replica of
     * the gateway, ledger, ingest and webhooks under Postgres's max_connections (docs/OPERATIONS.md "Postgres connections").
     */
    @IsOptional()
    @Transform(toInt)
    @IsInt({ message: 'must be a whole number of connections' })
    @Min(2)
    @Max(200)
    DATABASE_POOL_SIZE = 20;
  }
  return DatabaseConfig;
}

/**
 * The schema owner's connection (role pp_owner): only the migrate entry points
 * and operator tasks such as the ledger's read-model rebuild read it; services
 * never get it.
 */
export function WithMigrationDatabase<T extends ConfigClass>(Base: T) {
  class MigrationDatabaseConfig extends Base {
    @Matches(/^postgres(ql)?:\/\/[^\s]+$/, {
      message: 'must be a postgres:// URL of the schema owner role, e.g. postgres://pp_owner:<password>@127.0.0.1:5432/pp',
    })
    @HasNoWeakPassword()
    MIGRATION_DATABASE_URL!: string;
  }
  return MigrationDatabaseConfig;
}

export function WithRedis<T extends ConfigClass>(Base: T) {
  class RedisConfig extends Base {
    @Matches(/^rediss?:\/\/[^\s]+$/, { message: 'must be a redis:// URL, e.g. redis://127.0.0.1:6379' })
    @HasNoWeakPassword()
    REDIS_URL!: string;
  }
  return RedisConfig;
}

/** For the apps with an HTTP port (gateway, checkout, dashboard). */
export function WithHttpTimeouts<T extends ConfigClass>(Base: T) {
  class HttpTimeoutsConfig extends Base {
    /**
     * How long a client may take to send a request's headers, and its body
     * after them. One that has not is answered 408 and disconnected, so
     * clients that send slowly on purpose cannot hold connections open for
     * good. The largest requests are the raw e-mails a mail pipeline posts
     * (up to 5 MB).
     */
    @IsOptional()
    @Transform(toInt)
    @IsInt({ message: 'must be a whole number of milliseconds' })
    @Min(1000)
    @Max(300_000)
    HTTP_REQUEST_TIMEOUT_MS = 30_000;
  }
  return HttpTimeoutsConfig;
}

export function WithCheckoutUrls<T extends ConfigClass>(Base: T) {
  class CheckoutUrlConfig extends Base {
    /** An origin: the checkout app serves its pages, assets and status from the root, so a base with a path would frame a page that loads none of them. */
    @Matches(/^https?:\/\/[^\s/?#@]+\/?$/, { message: 'must be an http(s) origin with no path (the checkout app serves from /), e.g. https://checkout.example.com' })
    CHECKOUT_URL_BASE!: string;
  }
  return CheckoutUrlConfig;
}

/** Prometheus' registered port for client libraries' exporters; each container has its own, so one default serves every service. */
export const DEFAULT_METRICS_PORT = 9464;

/** For services without an HTTP port: where GET /metrics answers (the web apps answer it on their own port). */
export function WithMetricsPort<T extends ConfigClass>(Base: T) {
  class MetricsPortConfig extends Base {
    @IsOptional()
    @Transform(toInt)
    @IsInt({ message: 'must be a port number (0 picks a free one)' })
    @Min(0, { message: 'must be a port number (0 picks a free one)' })
    @Max(65535, { message: 'must be a port number (0 picks a free one)' })
    METRICS_PORT = DEFAULT_METRICS_PORT;
  }
  return MetricsPortConfig;
}
