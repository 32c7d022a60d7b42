import { Pool } from 'pg';
import { guardCheckedOutClients } from './checked-out-clients';

// The launcher's Postgres (libs/platform cannot import @pp/testing, which reads the same variable).
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/*
 * A connection the server ends while a caller holds it. Without the guard,
 * node-postgres's 'error' event has no listener then, and Jest fails this
 * spec with the uncaught error (as it would end a service).
 */
describe('guardCheckedOutClients', () => {
  const admin = new Pool({ connectionString: ADMIN_URL, max: 1 });
  afterAll(() => admin.end());

  const terminate = async (pid: number) => (await admin.query<{ ended: boolean }>('SELECT pg_terminate_backend($1) AS ended', [pid])).rows[0].ended;
  const backendPid = (client: object) => (client as { processID: number }).processID;

  it('given a checked-out connection the server ends, then the loss is reported, the holder’s next statement fails, and the pool drops the client on release', async () => {
    const reported: Error[] = [];
    const pool = guardCheckedOutClients(new Pool({ connectionString: ADMIN_URL, max: 1, application_name: 'guard-spec' }), (error) => reported.push(error));
    try {
      const client = await pool.connect();
      const ended = new Promise((resolve) => client.once('end', resolve));
      expect(await terminate(backendPid(client))).toBe(true);
      await ended;

      expect(reported.map((error) => (error as Error & { code?: string }).code ?? error.message)).toContain('57P01');
      await expect(client.query('SELECT 1')).rejects.toThrow(/not queryable/);
      client.release();
      expect(pool.totalCount).toBe(0);
      expect((await pool.query<{ n: number }>('SELECT 1 AS n')).rows).toEqual([{ n: 1 }]);
    } finally {
      await pool.end();
    }
  });

  it('given the client went back to the pool, then its errors are the pool’s again: the guard no longer hears them', async () => {
    const reported: Error[] = [];
    const poolErrors: Error[] = [];
    const pool = guardCheckedOutClients(new Pool({ connectionString: ADMIN_URL, max: 1, application_name: 'guard-spec' }), (error) => reported.push(error));
    pool.on('error', (error) => poolErrors.push(error));
    try {
      const client = await pool.connect();
      const pid = backendPid(client);
      const ended = new Promise((resolve) => client.once('end', resolve));
      client.release();
      expect(await terminate(pid)).toBe(true);
      await ended;

      expect(reported).toEqual([]);
      expect(poolErrors).toHaveLength(1);
      expect(client.listenerCount('error')).toBe(1); // pg-pool's own, left after it dropped the client
    } finally {
      await pool.end();
    }
  });
});
