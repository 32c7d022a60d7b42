import 'reflect-metadata';
import { WithMigrationDatabase } from '../config/config-schemas';
import { ConfigError, type Env, loadConfig } from '../config/load-config';
import { serviceRole } from '../database/database-roles';
import type { ServiceDatabase } from '../database/service-database';
import { runMigrations } from './run-migrations';
import { dataSourceFor } from './data-source';

class MigrateConfig extends WithMigrationDatabase(class {}) {}

/**
 * The whole of an app's migrate.ts: migrates its schema and applies its
 * role's grants as the owner role named by MIGRATION_DATABASE_URL, prints one
 * line and exits 0, or exits 1 with one line naming the problem. Set-up runs
 * it before the service starts (npm start, TestStack, the compose `migrate`
 * service, the Kubernetes `migrate` Job).
 */
export function runMigrate(database: ServiceDatabase, env: Env = process.env): void {
  const label = `[${database.service} migrate]`;
  migrate(database, env).then(
    (applied) => {
      const what = applied.length === 0 ? 'already at its latest migration' : `applied ${applied.join(', ')}`;
      process.stdout.write(`${label} schema ${database.schema}: ${what}; grants of ${serviceRole(database.service)} applied\n`);
      process.exit(0);
    },
    (error: unknown) => {
      const detail = error instanceof ConfigError ? `configuration error: ${error.problems.join('; ')}` : error instanceof Error ? error.message : String(error);
      process.stderr.write(`${label} failed: ${detail}\n`);
      process.exit(1);
    },
  );
}

async function migrate(database: ServiceDatabase, env: Env): Promise<string[]> {
  const { MIGRATION_DATABASE_URL } = loadConfig(MigrateConfig, env);
  return migrateDatabase(database, MIGRATION_DATABASE_URL);
}

/**
 * What the migrate command does once its configuration is read: refuses a
 * superuser, runs the schema's pending migrations and applies the role's
 * grants. Gives the names of the migrations it applied. The test harness
 * calls it for each spec's database (libs/testing, migration-runner).
 * A statement that waits for a table lock longer than MIGRATION_LOCK_POLICY
 * allows rolls its migration back, and the step tries again a few times,
 * each retry told on standard error (runMigrations). Its pool of two is the
 * advisory lock's session and the migrations' own.
 */
export async function migrateDatabase(database: ServiceDatabase, ownerUrl: string): Promise<string[]> {
  const dataSource = dataSourceFor(database, { url: ownerUrl, poolSize: 2, connectTimeoutMs: 5000, applicationName: `${database.service}-migrate` });
  await dataSource.initialize();
  try {
    // Tables a superuser creates are owned by it, and an owner can switch off the append-only triggers.
    const [role] = await dataSource.query('SELECT current_user AS name, rolsuper AS superuser FROM pg_roles WHERE rolname = current_user');
    if (role.superuser) {
      throw new Error(`MIGRATION_DATABASE_URL logs in as ${role.name}, a superuser; migrate as the owner role (pp_owner), which must own the database`);
    }
    return await runMigrations(dataSource, database);
  } finally {
    await dataSource.destroy();
  }
}
