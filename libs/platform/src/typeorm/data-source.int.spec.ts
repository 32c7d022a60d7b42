import { Client } from 'pg';
import { WARM_CONNECTIONS } from '../database/service-database';
import { dataSourceFor } from './data-source';

// The launcher's Postgres (libs/platform cannot import @pp/testing, which reads the same variable).
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const IDLE_TIMEOUT_MS = 100;

describe('a service pool while it idles (dataSourceFor)', () => {
  const applicationName = `warm-pool-spec-${process.pid}`;
  const observer = new Client({ connectionString: ADMIN_URL });
  const dataSource = dataSourceFor(
    { service: 'gateway', schema: 'public', migrations: [], grants: {} },
    { url: ADMIN_URL, poolSize: 4, applicationName, idleTimeoutMs: IDLE_TIMEOUT_MS, prepareStatements: true },
  );

  /** The backends Postgres has for the pool: what a server sees, not what the pool believes. */
  const backends = async (): Promise<number[]> =>
    (await observer.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1 ORDER BY pid', [applicationName])).rows.map((row: { pid: number }) => row.pid);

  beforeAll(async () => {
    await observer.connect();
    await dataSource.initialize();
  });
  afterAll(async () => {
    await dataSource.destroy();
    await observer.end();
  });

  it('given a burst that opened several connections, when it idles past the idle timeout, then the extra ones close and one stays open and answers the next query', async () => {
    const burst = Array.from({ length: 4 }, () => dataSource.createQueryRunner());
    await Promise.all(burst.map((runner) => runner.connect())); // each holds a connection of its own until released
    expect(await backends()).toHaveLength(4);
    await Promise.all(burst.map((runner) => runner.release()));

    // The pool ends each extra connection IDLE_TIMEOUT_MS after its query; its backend exits a moment later.
    const deadline = Date.now() + 5_000;
    let kept = await backends();
    while (kept.length > WARM_CONNECTIONS && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, IDLE_TIMEOUT_MS));
      kept = await backends();
    }
    await new Promise((resolve) => setTimeout(resolve, IDLE_TIMEOUT_MS * 3));
    expect(await backends()).toEqual(kept);
    expect(kept).toHaveLength(WARM_CONNECTIONS);

    const [{ pid }] = await dataSource.query('SELECT pg_backend_pid() AS pid');
    expect([pid]).toEqual(kept);
  });
});
