import { escapeIdentifier } from 'pg';
import type { DataSource } from 'typeorm';
import { applySchemaGrants } from '../database/schema-grants';
import type { ServiceDatabase } from '../database/service-database';

/**
 * Creates the service's schema, applies pending migrations, then (in one
 * transaction) its role's grants; answers the names of the migrations applied. Runs as the owner role (the migrate entry
 * points, apps/<service>/src/migrate.ts). A database-wide advisory lock makes
 * replicas and parallel migrations of several schemas take turns: grants on
 * the database and on schema public are shared by all of them.
 */
export async function runMigrations(dataSource: DataSource, database: ServiceDatabase): Promise<string[]> {
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    await lock.query(`SELECT pg_advisory_lock(hashtext('pp:migrate'))`);
    await lock.query(`CREATE SCHEMA IF NOT EXISTS ${escapeIdentifier(database.schema)}`);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    await lock.startTransaction();
    try {
      await applySchemaGrants(lock, database);
      await lock.commitTransaction();
      return applied.map((migration) => migration.name);
    } catch (error) {
      await lock.rollbackTransaction();
      throw error;
    }
  } finally {
    await lock.query(`SELECT pg_advisory_unlock(hashtext('pp:migrate'))`).catch(() => undefined);
    await lock.release();
  }
}
