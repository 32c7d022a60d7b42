import type { DataSource } from 'typeorm';

/**
 * Creates the service's schema and applies pending migrations, holding a
 * Postgres advisory lock so that replicas booting together migrate once.
 */
export async function runMigrations(dataSource: DataSource, schema: string): Promise<void> {
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock(hashtext($1))', [`migrate:${schema}`]);
    await lock.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await lock.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrate:${schema}`]).catch(() => undefined);
    await lock.release();
  }
}
