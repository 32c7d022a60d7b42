import type { ServiceDatabase } from '@pp/platform';
import { Client } from 'pg';
import { repositoryDatabase } from './repository-database';
import { waitFor } from './wait-for';

/** A schema with no tables of its own: the harness is under test here, not a service's migrations. */
const EMPTY: ServiceDatabase = { service: 'webhooks', schema: 'webhooks', migrations: [], grants: {} };

describe('repositoryDatabase (real Postgres)', () => {
  // Without the pool's listener, jest fails this test with the pool's unhandled 'error' event.
  it("given the server ends the admin pool's idle connection, when the spec goes on: nothing is thrown, and the next query connects anew", async () => {
    const { admin, database, close } = await repositoryDatabase(EMPTY, 'harnessidle');
    const operator = new Client({ connectionString: database.url });
    try {
      const { rows } = await admin.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await waitFor('the connection to be idle in the pool', async () => admin.idleCount === 1);
      // Ended from outside the pool, as a restart or an operator would end it.
      await operator.connect();
      const { rows: ended } = await operator.query<{ ended: boolean }>('SELECT pg_terminate_backend($1) AS ended', [rows[0].pid]);
      expect(ended[0].ended).toBe(true);
      await waitFor('the pool to drop the ended connection', async () => admin.totalCount === 0);
      const { rows: after } = await admin.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      expect(after[0].pid).not.toBe(rows[0].pid);
    } finally {
      await operator.end();
      await close();
    }
  }, 60_000);
});
