import { Client } from 'pg';
import { testInfra } from '@pp/testing';

/*
 * The launcher's set-up sessions as the superuser (postgres-roles.js: the roles, the database handed to
 * the owner, checkPostgres): a session stuck holding a lock they need fails `npm start` / `npm test`
 * with Postgres's own error instead of hanging it.
 */

type Options = ConstructorParameters<typeof Client>[0];
/* eslint-disable @typescript-eslint/no-require-imports -- the launcher is plain CommonJS */
const { setupClientOptions, withSetupClient } = require('./postgres-roles') as {
  setupClientOptions: (url: string, timeoutMs?: number) => Options;
  withSetupClient: <T>(url: string, fn: (client: Client) => Promise<T>) => Promise<T>;
};
/* eslint-enable @typescript-eslint/no-require-imports */

const LOCK = "hashtext('launcher spec: a stuck session')";

it('bounds every statement and every wait for a lock at a minute', async () => {
  const settings = await withSetupClient(testInfra.postgresAdminUrl, async (client) => {
    const { rows } = await client.query<{ statement: string; lock: string }>("SELECT current_setting('statement_timeout') AS statement, current_setting('lock_timeout') AS lock");
    return rows[0];
  });
  expect(settings).toEqual({ statement: '1min', lock: '1min' });
});

it('given another session holding a lock it needs, then the wait fails once the timeout passes', async () => {
  const stuck = new Client({ connectionString: testInfra.postgresAdminUrl });
  const setUp = new Client(setupClientOptions(testInfra.postgresAdminUrl, 300));
  await stuck.connect();
  await setUp.connect();
  try {
    await stuck.query('BEGIN');
    await stuck.query(`SELECT pg_advisory_xact_lock(${LOCK})`);
    const started = Date.now();
    // The lock wait and the statement end together: whichever Postgres reports (lock_not_available, query_canceled).
    const waited = await setUp.query(`SELECT pg_advisory_xact_lock(${LOCK})`).then(
      () => 'took the lock',
      (error: { code?: string }) => error.code,
    );
    expect(['55P03', '57014']).toContain(waited);
    expect(Date.now() - started).toBeLessThan(5000);
  } finally {
    await stuck.query('ROLLBACK').catch(() => undefined);
    await Promise.all([stuck.end(), setUp.end()]);
  }
}, 15_000);
