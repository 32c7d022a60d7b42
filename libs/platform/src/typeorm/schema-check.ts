import { type DataSource, MigrationExecutor } from 'typeorm';
import { serviceRole } from '../database/database-roles';
import type { ServiceDatabase } from '../database/service-database';

/** Raised at boot when the service's database connection or schema is not what it must be. */
export class DatabaseNotReadyError extends Error {
  override name = 'DatabaseNotReadyError';
}

/**
 * What a service checks at boot instead of migrating: that it logs in as a
 * role which is no superuser and neither owns nor may become the owner of
 * anything in its schema (so it cannot drop the append-only triggers), and
 * that the owner has applied every migration this build knows
 * (apps/<service>/src/migrate.ts runs first). A newer schema is fine: the
 * previous build keeps running while the next one migrates.
 */
export async function assertServiceDatabase(dataSource: DataSource, database: ServiceDatabase): Promise<void> {
  const [role] = await dataSource.query(
    `SELECT current_user AS name, r.rolsuper AS superuser,
            EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                     WHERE n.nspname = $1 AND pg_has_role(current_user, c.relowner, 'MEMBER')) AS owns_tables
       FROM pg_roles r WHERE r.rolname = current_user`,
    [database.schema],
  );
  const expected = serviceRole(database.service);
  if (role.superuser || role.owns_tables) {
    throw new DatabaseNotReadyError(
      `DATABASE_URL logs in as ${role.name}, which ${role.superuser ? 'is a superuser' : `owns tables of schema ${database.schema}`}; ` +
        `the ${database.service} service must connect as its own role ${expected} (docs/ARCHITECTURE.md, "Tables")`,
    );
  }
  await assertMigrated(dataSource, database);
}

/** Fails unless every migration of this build has been applied (a newer schema is fine). */
export async function assertMigrated(dataSource: DataSource, database: ServiceDatabase): Promise<void> {
  const pending = await new MigrationExecutor(dataSource).getPendingMigrations();
  if (pending.length > 0) {
    throw new DatabaseNotReadyError(
      `schema ${database.schema} is not at its latest migration (pending: ${pending.map((m) => m.name).join(', ')}); ` +
        `run node dist/apps/${database.service}/src/migrate.js with MIGRATION_DATABASE_URL first`,
    );
  }
}
