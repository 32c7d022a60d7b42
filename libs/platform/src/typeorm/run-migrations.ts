import { setTimeout as sleep } from 'node:timers/promises';
import { escapeIdentifier } from 'pg';
import { type DataSource, MigrationExecutor, type QueryRunner } from 'typeorm';
import { serviceRole } from '../database/database-roles';
import { isLockNotAvailable } from '../database/pg-errors';
import { applySchemaGrants } from '../database/schema-grants';
import type { ServiceDatabase } from '../database/service-database';

/** The database-wide advisory lock the migrate step takes turns on. */
const MIGRATE_LOCK = `hashtext('pp:migrate')`;

/** How the migrate step waits for the table locks its statements need. */
export interface MigrationLockPolicy {
  /**
   * How long any one statement of the step (a migration's, TypeORM's on its
   * migrations table, the grants) waits for a lock before Postgres cancels it
   * with lock_not_available: the sessions' lock_timeout. It bounds the wait
   * for a lock, not the work done once the lock is held (an index build).
   */
  lockTimeoutMs: number;
  /** The pause before each new attempt after a lock wait was cut short: as many retries as entries. */
  retryWaitsMs: readonly number[];
}

/**
 * A migration's ALTER TABLE or CREATE INDEX waits for its lock behind every
 * transaction using the table, and while it waits every later statement on
 * that table (the services' reads and appends) queues behind it: one
 * transaction left open would stop the table for as long as it stays open.
 * After 5 s the statement gives up instead, its migration rolls back and the
 * queue moves on; the step tries again after 1, 2, 4, 8 and 16 s, then fails
 * naming the migration: some 61 s in all, about the minute the launcher's
 * set-up sessions wait for a lock (tools/launcher/postgres-roles.js).
 */
export const MIGRATION_LOCK_POLICY: MigrationLockPolicy = { lockTimeoutMs: 5_000, retryWaitsMs: [1_000, 2_000, 4_000, 8_000, 16_000] };

export interface RunMigrationsOptions {
  /** MIGRATION_LOCK_POLICY unless set. */
  lockPolicy?: MigrationLockPolicy;
  /** Where each retry is told; standard error, labelled as the migrate command labels its lines, unless set. */
  log?: (line: string) => void;
}

/**
 * The migrate step gave up: a statement of it waited past the lock timeout on
 * every attempt. It carries Postgres's SQLSTATE for that, 55P03
 * (lock_not_available), and the last such error as its cause.
 */
export class MigrationLockTimeoutError extends Error {
  override name = 'MigrationLockTimeoutError';
  readonly code = '55P03';

  constructor(
    /** What waited: a migration's name, the schema, the migrations table or the grants. */
    readonly blocked: string,
    readonly attempts: number,
    lockTimeoutMs: number,
    cause: unknown,
  ) {
    super(
      `${blocked} could not get a lock within ${lockTimeoutMs} ms (lock_timeout) in ${attempts} attempt${attempts === 1 ? '' : 's'}, ` +
        `each rolled back: a transaction holds a conflicting lock on its table (see pg_locks and pg_stat_activity); ` +
        `${describeStatement(cause)}Postgres: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
}

/**
 * Creates the service's schema, applies pending migrations, then (in one
 * transaction) its role's grants; answers the names of the migrations applied. Runs as the owner role (the migrate entry
 * points, apps/<service>/src/migrate.ts). A database-wide advisory lock makes
 * replicas and parallel migrations of several schemas take turns: grants on
 * the database and on schema public are shared by all of them.
 *
 * Waiting for that advisory lock has no bound: another replica may be
 * migrating. Every other statement waits at most the policy's lock timeout
 * for a lock; one that times out rolls its migration (or the grants) back,
 * and after a pause the step runs again from the first pending migration,
 * still holding the advisory lock. Any other failure ends the step at once.
 * A migration that runs outside a transaction (`transaction = false`, as
 * CREATE INDEX CONCURRENTLY must) is not rolled back: it must be safe to run
 * again from its start.
 */
export async function runMigrations(dataSource: DataSource, database: ServiceDatabase, options: RunMigrationsOptions = {}): Promise<string[]> {
  const policy = options.lockPolicy ?? MIGRATION_LOCK_POLICY;
  const log = options.log ?? ((line: string) => process.stderr.write(`[${database.service} migrate] ${line}\n`));
  const setLockTimeout = `SET lock_timeout = ${lockTimeoutMs(policy)}`;
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    await lock.query(setLockTimeout);
    await takeTurn(lock, log);
    const migrator = dataSource.createQueryRunner();
    await migrator.connect();
    try {
      await migrator.query(setLockTimeout);
      return await migrateWithRetries(dataSource, database, { lock, migrator }, policy, log);
    } finally {
      // The pool's connection goes back as it came.
      await migrator.query('RESET lock_timeout').catch(() => undefined);
      await migrator.release();
    }
  } finally {
    await lock.query(`SELECT pg_advisory_unlock(${MIGRATE_LOCK})`).catch(() => undefined);
    await lock.query('RESET lock_timeout').catch(() => undefined);
    await lock.release();
  }
}

/** How often a run waiting for another's migrations asks for the advisory lock again. */
const TURN_POLL_MS = 100;

/**
 * Waits, however long it takes, for the advisory lock, by asking for it again
 * and again rather than in one blocking pg_advisory_lock: a statement that
 * waits holds its snapshot for as long as it waits, and CREATE INDEX
 * CONCURRENTLY in the migration holding the lock waits for every older
 * snapshot of the database, so two runs would wait for each other until the
 * index build's lock timeout ended it, on every retry.
 */
async function takeTurn(lock: QueryRunner, log: (line: string) => void): Promise<void> {
  for (let waited = false; ; waited = true) {
    const [{ taken }] = (await lock.query(`SELECT pg_try_advisory_lock(${MIGRATE_LOCK}) AS taken`)) as Array<{ taken: boolean }>;
    if (taken) return;
    if (!waited) log('waiting for another migrate run (a replica or another schema) to finish');
    await sleep(TURN_POLL_MS);
  }
}

/** The policy's lock timeout, checked: it is written into SET, which takes no parameters. */
function lockTimeoutMs({ lockTimeoutMs: ms }: MigrationLockPolicy): number {
  if (!Number.isSafeInteger(ms) || ms <= 0) throw new Error(`the migrations' lock timeout must be a positive whole number of milliseconds, not ${ms}`);
  return ms;
}

/**
 * The schema, the pending migrations (each in its own transaction, on
 * `migrator`) and the grants (on `lock`), attempted again after each
 * lock timeout while the policy allows. Answers the migrations applied over
 * all attempts: those pending when the first attempt read them.
 */
async function migrateWithRetries(
  dataSource: DataSource,
  database: ServiceDatabase,
  { lock, migrator }: { lock: QueryRunner; migrator: QueryRunner },
  policy: MigrationLockPolicy,
  log: (line: string) => void,
): Promise<string[]> {
  let pendingAtStart: string[] | undefined;
  for (let attempt = 1; ; attempt += 1) {
    const executor = new MigrationExecutor(dataSource, migrator);
    executor.transaction = 'each';
    let step: 'schema' | 'migrations' | 'grants' = 'schema';
    try {
      await lock.query(`CREATE SCHEMA IF NOT EXISTS ${escapeIdentifier(database.schema)}`);
      step = 'migrations';
      pendingAtStart ??= (await executor.getPendingMigrations()).map((migration) => migration.name);
      await executor.executePendingMigrations();
      step = 'grants';
      await applyGrants(lock, database);
      return pendingAtStart;
    } catch (error) {
      if (!isLockNotAvailable(error)) throw error;
      const blocked =
        step === 'schema' ? `schema ${database.schema}` : step === 'grants' ? `the grants of ${serviceRole(database.service)}` : await blockedMigration(executor);
      if (attempt > policy.retryWaitsMs.length) throw new MigrationLockTimeoutError(blocked, attempt, policy.lockTimeoutMs, error);
      const waitMs = policy.retryWaitsMs[attempt - 1];
      log(
        `${blocked} could not get a lock within ${policy.lockTimeoutMs} ms (lock_timeout) and was rolled back; ${describeStatement(error)}` +
          `attempt ${attempt + 1} of ${policy.retryWaitsMs.length + 1} in ${waitMs} ms`,
      );
      await sleep(waitMs);
    }
  }
}

/** The role's grants, all or none (applySchemaGrants). */
async function applyGrants(lock: QueryRunner, database: ServiceDatabase): Promise<void> {
  await lock.startTransaction();
  try {
    await applySchemaGrants(lock, database);
    await lock.commitTransaction();
  } catch (error) {
    await lock.rollbackTransaction();
    throw error;
  }
}

/**
 * The migration that timed out: the first still pending, as the ones before
 * it committed. Read with the same lock timeout; a lock on the migrations
 * table itself leaves it unnamed.
 */
async function blockedMigration(executor: MigrationExecutor): Promise<string> {
  const pending = await executor.getPendingMigrations().catch(() => undefined);
  return pending?.[0] ? `migration ${pending[0].name}` : 'the migrations table';
}

/** "statement: …; " for a TypeORM query error, its SQL on one line and cut short. */
function describeStatement(error: unknown): string {
  const query = (error as { query?: unknown } | null)?.query;
  if (typeof query !== 'string') return '';
  const line = query.replace(/\s+/g, ' ').trim();
  return `statement: ${line.length > 160 ? `${line.slice(0, 157)}...` : line}; `;
}
