import type { QueryRunner } from 'typeorm';

/** An index a migration builds CONCURRENTLY: its name in its table's schema, and what follows ON in its CREATE INDEX. */
export type ConcurrentIndex = readonly [name: string, definition: string];

/**
 * Builds `indexes`, of tables in `schema`, CONCURRENTLY, so the writes to a large table (appends that project into it,
 * events taken in) go on while it is indexed. That
 * cannot run in a transaction (the migration sets `transaction = false`), so a failed attempt is not rolled back and the
 * migration runs again from its start: an index an earlier attempt built is kept, and one a build cut short left
 * invalid is dropped and built again.
 *
 * The build waits for every transaction of the database older than it, a 30 s list query included, and Postgres counts
 * those as lock waits: the migrate step's 5 s lock timeout would end it on a busy database, each retry alike. The lock
 * timeout is lifted for these statements only, which take SHARE UPDATE EXCLUSIVE (no read or append waits for them),
 * and set back to what it was, whether they succeed or not.
 */
export async function createIndexesConcurrently(db: QueryRunner, schema: string, indexes: readonly ConcurrentIndex[]): Promise<void> {
  const [{ lock_timeout: lockTimeout }] = (await db.query('SHOW lock_timeout')) as Array<{ lock_timeout: string }>;
  await db.query('SET lock_timeout = 0');
  try {
    for (const [name, definition] of indexes) {
      const [found] = (await db.query(`SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass($1)`, [`${schema}.${name}`])) as Array<{ valid: boolean }>;
      if (found?.valid) continue;
      if (found) await db.query(`DROP INDEX CONCURRENTLY ${schema}.${name}`);
      await db.query(`CREATE INDEX CONCURRENTLY ${name} ON ${definition}`);
    }
  } finally {
    await db.query(`SELECT set_config('lock_timeout', $1, false)`, [lockTimeout]);
  }
}

/** Drops `indexes` of `schema` CONCURRENTLY, those that exist. */
export async function dropIndexesConcurrently(db: QueryRunner, schema: string, indexes: readonly ConcurrentIndex[]): Promise<void> {
  for (const [name] of indexes) await db.query(`DROP INDEX CONCURRENTLY IF EXISTS ${schema}.${name}`);
}
