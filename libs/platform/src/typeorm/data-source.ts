import { DataSource } from 'typeorm';
import type { ServiceDatabase } from '../database/service-database';
import { PreparingClient } from '../database/preparing-client';

/** How a process connects to a service's schema: the pool size and the name Postgres shows for it (pg_stat_activity). */
export interface ConnectionOptions {
  url: string;
  poolSize: number;
  applicationName: string;
  connectTimeoutMs?: number;
  /** Prepare parameterized statements once per connection (PreparingClient): for a service's own long-lived pool, not for migrations. */
  prepareStatements?: boolean;
}

/** A TypeORM data source on the service's schema, with its migrations table (not yet initialized). */
export const dataSourceFor = (database: ServiceDatabase, { url, poolSize, applicationName, connectTimeoutMs, prepareStatements }: ConnectionOptions): DataSource =>
  new DataSource({
    type: 'postgres',
    url,
    schema: database.schema,
    migrations: database.migrations,
    migrationsTableName: 'migrations',
    extra: {
      max: poolSize,
      application_name: applicationName,
      ...(connectTimeoutMs ? { connectionTimeoutMillis: connectTimeoutMs } : {}),
      ...(prepareStatements ? { Client: PreparingClient } : {}),
    },
  });
