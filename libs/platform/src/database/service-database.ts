import { DataSource } from 'typeorm';
import type { ServiceName } from '@pp/contracts';
import { PreparingClient } from './preparing-client';

/** A table privilege a service role may hold. TRUNCATE, REFERENCES and TRIGGER are never granted. */
export type TablePrivilege = 'SELECT' | 'INSERT' | 'UPDATE' | 'DELETE';

/**
 * Every table of a service's schema and what its login role may do with it
 * (`[]` for nothing). Migrating refuses a schema with a table missing here,
 * so a new table cannot ship without a decision about who may touch it.
 */
export type TableGrants = Readonly<Record<string, readonly TablePrivilege[]>>;

/** What a service keeps in Postgres: its schema, the migrations that build it and its role's grants. */
export interface ServiceDatabase {
  service: ServiceName;
  schema: string;
  migrations: Function[];
  grants: TableGrants;
}

/** How long a service waits for a new Postgres connection before reporting Postgres unreachable. */
export const DATABASE_CONNECT_TIMEOUT_MS = 3000;

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
