import { DataSource } from 'typeorm';
import { PreparingClient } from '../database/preparing-client';
import { POSTGRES_KEEPALIVE } from '../database/keep-alive';
import { type ServiceDatabase, WARM_CONNECTIONS } from '../database/service-database';
import { type SessionLimits, sessionLimitParameters } from '../database/session-limits';

/** How a process connects to a service's schema: the pool size and the name Postgres shows for it (pg_stat_activity). */
export interface ConnectionOptions {
  url: string;
  poolSize: number;
  applicationName: string;
  connectTimeoutMs?: number;
  /** How long a connection above WARM_CONNECTIONS may sit idle before it closes (pg-pool's default, 10 s, unless set). */
  idleTimeoutMs?: number;
  /** Prepare parameterized statements once per connection (PreparingClient): for a service's own long-lived pool, not for migrations. */
  prepareStatements?: boolean;
  /** What Postgres ends on each connection (SERVICE_SESSION_LIMITS for a service's own pool); none when unset. */
  limits?: SessionLimits;
}

/**
 * A TypeORM data source on the service's schema, with its migrations table
 * (not yet initialized). Its pool keeps WARM_CONNECTIONS open while idle.
 */
export const dataSourceFor = (
  database: ServiceDatabase,
  { url, poolSize, applicationName, connectTimeoutMs, idleTimeoutMs, prepareStatements, limits }: ConnectionOptions,
): DataSource =>
  new DataSource({
    type: 'postgres',
    url,
    schema: database.schema,
    migrations: database.migrations,
    migrationsTableName: 'migrations',
    extra: {
      max: poolSize,
      min: Math.min(WARM_CONNECTIONS, poolSize),
      ...(idleTimeoutMs ? { idleTimeoutMillis: idleTimeoutMs } : {}),
      application_name: applicationName,
      ...POSTGRES_KEEPALIVE,
      ...(connectTimeoutMs ? { connectionTimeoutMillis: connectTimeoutMs } : {}),
      ...(prepareStatements ? { Client: PreparingClient } : {}),
      ...(limits ? sessionLimitParameters(limits) : {}),
    },
  });
