import type { ServiceName } from '@pp/contracts';

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

/**
 * Connections a service's pool keeps open however long it idles (pg-pool's
 * `min`); those above it close after 10 s idle. With none kept, a service
 * that waited longer than that between two requests connected anew and
 * prepared its statements again for the next one, in the ledger, its group
 * commit and the webhooks alike. With payments 11 s apart, the signed
 * webhook arrived after a median 119 ms; with one connection kept, 50 ms
 * (docs/PERFORMANCE.md, "Pools that idle out").
 */
export const WARM_CONNECTIONS = 1;
