import { Pool } from 'pg';

/**
 * A pool for a test's own queries on a test database: set-up and assertions
 * as the superuser, or queries as a role under test. A pool rather than one
 * client: specs run several queries at once, which one connection would have
 * to queue (deprecated by node-postgres), and a pool outlives its
 * connections. When the server ends an idle one (a restart, a terminated
 * backend), node-postgres re-emits the error on the pool, and an 'error'
 * event nobody listens to ends the jest worker, failing whichever test runs
 * at that moment, in whichever file. The pool drops that client by itself
 * and the next query connects anew, so a test still fails if its own
 * queries do.
 */
export function testPool(url: string, max = 4): Pool {
  const pool = new Pool({ connectionString: url, max });
  pool.on('error', () => undefined);
  return pool;
}
