import { isDatabaseService, type ServiceDatabase } from '@pp/platform';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { testPool } from './test-pool';
import { createTestDatabase, type TestDatabase } from './test-database';

export interface RepositoryDatabase {
  database: TestDatabase;
  /** Logged in as the service's own role, as its repositories are in production. */
  dataSource: DataSource;
  /** A superuser's pool, for the test's own set-up and assertions (testPool). */
  admin: Pool;
  close(): Promise<void>;
}

/** A fresh database with one service's schema migrated, for specs of that service's repositories on real Postgres. */
export async function repositoryDatabase(schema: ServiceDatabase, label: string): Promise<RepositoryDatabase> {
  if (!isDatabaseService(schema.service)) throw new Error(`${schema.service} has no database role`);
  const database = await createTestDatabase(label);
  await database.migrate(schema.service);
  // Loaded here, not at the top: every spec that imports @pp/testing would load TypeORM's 300 modules
  // through Jest's module registry, about a second a file; only repository specs use it.
  const { dataSourceFor } = await import('@pp/platform/typeorm');
  // Prepared statements as in the service's own pool (DatabaseModule).
  const dataSource = dataSourceFor(schema, { url: database.serviceUrl(schema.service), poolSize: 4, applicationName: `${label}-spec`, prepareStatements: true });
  await dataSource.initialize();
  const admin = testPool(database.url);
  const close = async () => {
    await admin.end();
    await dataSource.destroy();
    await database.drop();
  };
  return { database, dataSource, admin, close };
}
