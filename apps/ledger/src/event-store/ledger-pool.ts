import { guardCheckedOutClients } from '@pp/platform';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/** Injection token of the node-postgres pool under the ledger's TypeORM data source. */
export const LEDGER_POOL = Symbol('LEDGER_POOL');

/**
 * The ledger writes plain SQL (multi-row inserts, savepoints, xid8) and wants
 * node-postgres results as they are, so it talks to the pool TypeORM opened
 * rather than opening a second one. It checks clients out by hand (a replay's
 * read, the rebuild's transaction), so a connection lost while held is
 * reported to `onLost` instead of ending the process (guardCheckedOutClients).
 */
export const poolOf = (dataSource: DataSource, onLost: (error: Error) => void): Pool =>
  guardCheckedOutClients((dataSource.driver as PostgresDriver).master as Pool, onLost);
