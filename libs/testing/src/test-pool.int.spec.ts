import { Client } from 'pg';
import { createTestDatabase } from './test-database';
import { testPool } from './test-pool';
import { waitFor } from './wait-for';

describe('testPool (real Postgres)', () => {
  // Without the pool's listener, jest fails this test with the pool's unhandled 'error' event.
  it("given the server ends the pool's idle connection, when the test goes on: nothing is thrown, and the next query connects anew", async () => {
    const database = await createTestDatabase('testpool');
    const pool = testPool(database.url, 1);
    const operator = new Client({ connectionString: database.url });
    try {
      const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await waitFor('the connection to be idle in the pool', async () => pool.idleCount === 1);
      // Ended from outside the pool, as a restart or an operator would end it.
      await operator.connect();
      const { rows: ended } = await operator.query<{ ended: boolean }>('SELECT pg_terminate_backend($1) AS ended', [rows[0].pid]);
      expect(ended[0].ended).toBe(true);
      await waitFor('the pool to drop the ended connection', async () => pool.totalCount === 0);
      const { rows: after } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      expect(after[0].pid).not.toBe(rows[0].pid);
    } finally {
      await operator.end();
      await pool.end();
      await database.drop();
    }
  }, 60_000);
});
