import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { WARM_CONNECTIONS } from '../database/service-database';
import type { SessionLimits } from '../database/session-limits';
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

  it('given an idle connection of the pool, then the kernel runs its keepalive timer, so a server that vanished without closing it is found out', async () => {
    await dataSource.query('SELECT 1');
    const ports = (await observer.query('SELECT client_port FROM pg_stat_activity WHERE application_name = $1', [applicationName])).rows.map((row: { client_port: number }) => row.client_port);
    expect(ports.length).toBeGreaterThan(0);
    const serverPort = Number(new URL(ADMIN_URL).port || 5432);
    const sockets = tcpSockets();
    for (const port of ports) expect({ port, timer: tcpTimerOf(sockets, port, serverPort) }).toEqual({ port, timer: KEEPALIVE_TIMER });
  });
});

describe('a service pool\'s session limits (dataSourceFor with limits)', () => {
  const limits: SessionLimits = { statementTimeoutMs: 300, idleInTransactionTimeoutMs: 400, answerTimeoutMs: 5_000 };
  const limited = dataSourceFor({ service: 'gateway', schema: 'public', migrations: [], grants: {} }, { url: ADMIN_URL, poolSize: 2, applicationName: `limited-pool-spec-${process.pid}`, limits });
  const unlimited = dataSourceFor({ service: 'gateway', schema: 'public', migrations: [], grants: {} }, { url: ADMIN_URL, poolSize: 1, applicationName: `unlimited-pool-spec-${process.pid}` });

  beforeAll(async () => {
    await Promise.all([limited.initialize(), unlimited.initialize()]);
  });
  afterAll(async () => {
    await Promise.all([limited.destroy(), unlimited.destroy()]);
  });

  it('given a statement that runs past the statement limit, then Postgres cancels it and the pool answers the next query', async () => {
    const error = await limited.query('SELECT pg_sleep(5)').then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toMatchObject({ code: '57014', message: expect.stringMatching(/statement timeout/) });
    expect(await limited.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('given a transaction left open and idle past its limit (a process that froze mid-work), then Postgres ends the session and releases its locks', async () => {
    const frozen = limited.createQueryRunner();
    await frozen.connect();
    await frozen.startTransaction();
    await frozen.query(`SELECT pg_advisory_xact_lock(hashtext('limited-pool-spec'))`);

    // Another session waits for that lock; it gets it once Postgres has ended the idle transaction's session.
    const waitedMs = Date.now();
    await unlimited.transaction(async (other) => {
      await other.query(`SELECT pg_advisory_xact_lock(hashtext('limited-pool-spec'))`);
    });
    expect(Date.now() - waitedMs).toBeGreaterThanOrEqual(limits.idleInTransactionTimeoutMs - 50);
    const error = await frozen.query('SELECT 1').then(
      () => undefined,
      (reason: unknown) => reason,
    );
    // TypeORM heard its connection end and gave it back to the pool; the frozen work cannot go on.
    expect(frozen.isReleased).toBe(true);
    expect(error).toBeInstanceOf(Error);
    expect(await limited.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('given no limits, then the pool\'s sessions keep the server\'s defaults', async () => {
    expect(await unlimited.query('SHOW statement_timeout')).toEqual([{ statement_timeout: '0' }]);
    expect(await limited.query('SHOW statement_timeout')).toEqual([{ statement_timeout: '300ms' }]);
  });
});

describe("a service pool's answer deadline (dataSourceFor with limits)", () => {
  // Postgres would not cancel the statement for 10 s: to the client, a server that stopped answering.
  const limits: SessionLimits = { statementTimeoutMs: 10_000, idleInTransactionTimeoutMs: 10_000, answerTimeoutMs: 300 };
  const pool = dataSourceFor(
    { service: 'gateway', schema: 'public', migrations: [], grants: {} },
    { url: ADMIN_URL, poolSize: 1, applicationName: `answer-deadline-spec-${process.pid}`, prepareStatements: true, limits },
  );
  const backendPid = async (): Promise<number> => (await pool.query('SELECT pg_backend_pid() AS pid'))[0].pid;

  beforeAll(() => pool.initialize());
  afterAll(() => pool.destroy());

  it('given a statement with no answer past the deadline, then it fails, its connection is ended and the next statement answers at once on a new one', async () => {
    const before = await backendPid();
    const startedAt = Date.now();
    await expect(pool.query('SELECT pg_sleep(3)')).rejects.toThrow('Query read timeout');
    expect(Date.now() - startedAt).toBeLessThan(2_000);

    // Left waiting, the pool's one connection would answer only when the sleep ended, 3 s in.
    const after = await backendPid();
    expect(Date.now() - startedAt).toBeLessThan(2_000);
    expect(after).not.toBe(before);
  });
});

/** /proc/net/tcp's timer of a socket that is only waiting: 02 when its keepalive timer runs, 00 when none does. */
const KEEPALIVE_TIMER = '02';

/** /proc/net/tcp's state of an established connection. */
const ESTABLISHED = '01';

/**
 * The timer the kernel runs for this machine's established TCP connection from `localPort` to `remotePort` (Linux:
 * /proc/net/tcp and tcp6; the remote port and the state tell it from another socket sharing the local port).
 */
function tcpTimerOf(sockets: string[][], localPort: number, remotePort: number): string | undefined {
  const hex = (port: number) => `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const socket = sockets.find(([, local, remote, state]) => local?.endsWith(hex(localPort)) && remote?.endsWith(hex(remotePort)) && state === ESTABLISHED);
  return socket?.[5].split(':')[0];
}

/** This machine's TCP sockets, each the fields of its line in /proc/net/tcp or tcp6. */
const tcpSockets = (): string[][] =>
  ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((table) => readFileSync(table, 'utf8').split('\n').slice(1).map((line) => line.trim().split(/\s+/)));
