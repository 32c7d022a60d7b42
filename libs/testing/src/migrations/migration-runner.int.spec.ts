import { Client } from 'pg';
import { testInfra } from '../infra';
import { createTestDatabase, type TestDatabase } from '../test-database';
import { migrateThroughRunner } from './migrate-through-runner';

describe('the migration runner of a Jest run', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('runner');
  });

  afterAll(async () => {
    await database.drop();
  });

  async function tablesOf(schema: string): Promise<{ table: string; owner: string }[]> {
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT tablename AS table, tableowner AS owner FROM pg_tables WHERE schemaname = $1 ORDER BY 1', [schema]);
      return rows;
    } finally {
      await client.end();
    }
  }

  it('migrates a service schema as the owner role, and a second time finds nothing to apply', async () => {
    await migrateThroughRunner('webhooks', database.ownerUrl);
    const tables = await tablesOf('webhooks');
    expect(tables.map((row) => row.table)).toEqual(expect.arrayContaining(['endpoints', 'deliveries']));
    expect(new Set(tables.map((row) => row.owner))).toEqual(new Set(['pp_owner']));
    await expect(migrateThroughRunner('webhooks', database.ownerUrl)).resolves.toBeUndefined();
  });

  it('reports what the migrate command would refuse, with its reason', async () => {
    await expect(migrateThroughRunner('webhooks', testInfra.postgresAdminUrl)).rejects.toThrow(/migrating webhooks failed: .*a superuser; migrate as the owner role/);
    await expect(migrateThroughRunner('sessions' as never, database.ownerUrl)).rejects.toThrow('migrating sessions failed: sessions has no schema of its own');
  });
});
