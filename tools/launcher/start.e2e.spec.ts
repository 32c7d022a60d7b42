import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { connectNats } from '@pp/platform';
import { freePortBlock, processAlive, testInfra, waitFor } from '@pp/testing';

/*
 * `npm start` as a user runs it: the launcher sets up, starts every service,
 * waits for /readyz and prints the URLs. Killing the launcher outright leaves
 * services behind; the next start must reap them and come up again; Ctrl-C
 * must stop every service.
 */

const root = join(__dirname, '..', '..');
// The launcher's ports: the gateway's (base), checkout's and the dashboard's next to it, and the other services'
// metrics from base + 10 (start.js); a block free now, below Linux's ephemeral range, where an outgoing connection
// of the tests beside this one could take a port before the services listen (CI saw EADDRINUSE on the dashboard's).
const LAUNCHER_PORTS = 15;
let base = 0;
let ports: Record<'GATEWAY_PORT' | 'CHECKOUT_PORT' | 'DASHBOARD_PORT', string>;
const database = `pp_launcher_${randomBytes(4).toString('hex')}`;
/** Every namespace a launch used: its streams outlive the launcher (the migrate step made them) and are deleted after. */
const namespaces: string[] = [];

function launch(extraEnv: Record<string, string> = {}): { child: ChildProcess; output: () => string; namespace: string } {
  const dbUrl = new URL(testInfra.postgresAdminUrl);
  dbUrl.pathname = `/${database}`;
  const namespace = `launch${randomBytes(3).toString('hex')}`;
  namespaces.push(namespace);
  const child = spawn(process.execPath, [join(root, 'tools', 'launcher', 'start.js')], {
    cwd: root,
    env: {
      ...process.env,
      ...ports,
      DATABASE_URL: dbUrl.toString(),
      // No NATS_URL: the launcher runs the project's own server and gives each service its identity.
      REDIS_URL: testInfra.redisUrl,
      PP_NAMESPACE: namespace,
      // As TestStack's: NATS sets a stream's byte limit aside from its store, and the 1 GiB defaults of every launch
      // would add up on the project's server, which keeps its store between runs.
      INGEST_STREAM_MAX_BYTES: String(64 * 1024 * 1024),
      INGEST_BUCKET_MAX_BYTES: String(64 * 1024 * 1024),
      // Jest's global set-up built dist/; a rebuild would race the services other test files start.
      LAUNCHER_SKIP_BUILD: 'true',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { child, output: () => text, namespace };
}

/** The launcher's pid file for the gateway port of these tests (tools/launcher/pid-file.js). */
const pidFile = () => join(root, 'tmp', `services-${ports.GATEWAY_PORT}.pids`);

/** Service processes started with this PP_NAMESPACE, found by their environment: they outlive a launcher that leaves them behind. */
const servicesOfNamespace = (namespace: string): number[] =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((entry) => {
      try {
        return /dist\/apps\/[a-z]+\/src\/main\.js/.test(readFileSync(`/proc/${entry}/cmdline`, 'utf8')) && readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`PP_NAMESPACE=${namespace}`);
      } catch {
        return false; // ended while being read
      }
    })
    .map(Number);

const exitOf = (child: ChildProcess) => new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));

/**
 * The launcher's service processes other than the gateway, by name, read from
 * /proc (Linux): the public /readyz shows no process ids.
 */
const serviceProcesses = (launcher: ChildProcess): Record<string, number> => {
  const found: Record<string, number> = {};
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const service = /dist\/apps\/([a-z]+)\/src\/main\.js/.exec(readFileSync(`/proc/${entry}/cmdline`, 'utf8'))?.[1];
      if (parent === launcher.pid && service && service !== 'gateway') found[service] = Number(entry);
    } catch {
      // the process ended while being read
    }
  }
  return found;
};
/**
 * Until the launcher says every service answers; on a timeout the error carries what it printed, so a failure says
 * why. Generous: with the other test files' stacks starting beside it, eight services and a fresh database's
 * migrations have taken over 90 s on two cores (the bench measures the start-up time, not this).
 */
const ready = (run: ReturnType<typeof launch>, description: string) =>
  waitFor(description, () => run.output().includes('Ready. Every service answers.'), { timeoutMs: 150_000 }).catch((error: Error) => {
    throw new Error(`${error.message}\n--- the launcher printed (last 4,000 characters) ---\n${run.output().slice(-4000)}`);
  });

const servicePids = async (launcher: ChildProcess): Promise<number[]> => Object.values(serviceProcesses(launcher));

/** The demo sign-ins `npm start` keeps for its own database, which these launches on a throwaway one must leave alone. */
const keptSignIns = () => ['demo-merchant.json', 'demo-platform-admin.json'].map((name) => join(root, '.dev', name)).map((file) => (existsSync(file) ? readFileSync(file, 'utf8') : null));
let signInsBefore: Array<string | null>;

beforeAll(async () => {
  signInsBefore = keptSignIns();
  base = await freePortBlock(LAUNCHER_PORTS);
  ports = { GATEWAY_PORT: String(base), CHECKOUT_PORT: String(base + 1), DASHBOARD_PORT: String(base + 2) };
});

afterAll(async () => {
  const admin = new Client({ connectionString: testInfra.postgresAdminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await admin.end();
  for (const name of ['demo-merchant', 'demo-platform-admin']) rmSync(join(root, '.dev', `${name}-${database}.json`), { force: true });
  const nc = await connectNats(testInfra.natsUrl, 'launcher-spec');
  try {
    const jsm = await nc.jetstreamManager();
    for await (const name of jsm.streams.names()) {
      if (namespaces.some((namespace) => name.includes(`${namespace}_`))) await jsm.streams.delete(name);
    }
  } finally {
    await nc.close();
  }
});

it('starts, survives being killed, starts again, and stops every service on Ctrl-C', async () => {
  const first = launch();
  await ready(first, 'first start to be ready');
  expect(first.output()).toMatch(/Infrastructure: Postgres, NATS \(JetStream\), Redis/);
  expect(first.output()).toContain(`http://localhost:${ports.GATEWAY_PORT}`);
  expect(first.output()).toContain(`Postgres: created database ${database}`);
  // The demo's sign-ins are saved for this database; the ones kept for `npm start`'s are untouched.
  expect(first.output()).toContain(`saved in ${join(root, '.dev', `demo-merchant-${database}.json`)}`);
  expect(keptSignIns()).toEqual(signInsBefore);
  expect(first.output()).toMatch(/NATS: (started|reloaded) the project's server|NATS: the project's server answers/);
  // It says where every service's metrics are, and they answer there.
  const ledgerMetrics = `http://localhost:${base + 11}/metrics`;
  await waitFor('the metrics addresses', () => first.output().includes(`ledger     ${ledgerMetrics}`));
  expect(first.output()).toContain(`gateway    http://localhost:${ports.GATEWAY_PORT}/metrics`);
  expect(await (await fetch(ledgerMetrics)).text()).toContain('pp_bus_requests_total{subject="health.ledger"');
  const orphans = await servicePids(first.child);
  expect(orphans).toHaveLength(7);

  // A second start on the same port while the first runs refuses, and touches neither its services nor its pid file.
  const meanwhile = launch();
  expect(await exitOf(meanwhile.child)).toBe(1);
  expect(meanwhile.output()).toContain(`already running (pid ${first.child.pid}); stop it first`);
  expect(orphans.filter((pid) => !processAlive(pid))).toEqual([]);
  expect(JSON.parse(readFileSync(pidFile(), 'utf8'))).toMatchObject({ launcher: first.child.pid });

  first.child.kill('SIGKILL'); // the launcher dies; its services live on
  await waitFor('launcher gone', () => first.child.exitCode !== null || first.child.signalCode !== null);
  expect(orphans.filter((pid) => !processAlive(pid))).toEqual([]);

  const second = launch();
  await ready(second, 'second start to be ready');
  expect(second.output()).toContain('left over from an earlier run');
  expect(second.output()).not.toContain(`created database ${database}`);
  expect(orphans.filter(processAlive)).toEqual([]);
  const running = await servicePids(second.child);

  second.child.kill('SIGINT');
  await waitFor('launcher exit', () => second.child.exitCode !== null, { timeoutMs: 20_000 });
  expect(second.child.exitCode).toBe(0);
  expect(running.filter(processAlive)).toEqual([]);
  expect(second.output()).toContain('stopping every service');
  expect(existsSync(pidFile())).toBe(false);
}, 360_000);

it('stops the services it started when it fails after starting them', async () => {
  const run = launch({ LAUNCHER_TEST_FAIL_AFTER_START: 'true' });
  expect(await exitOf(run.child)).toBe(1);
  expect(run.output()).toContain('failing after the services started');
  expect(run.output()).toContain('stopping every service');
  expect(servicesOfNamespace(run.namespace)).toEqual([]);
  expect(existsSync(pidFile())).toBe(false);
}, 180_000);

it('stops the whole stack and names the service when one crashes', async () => {
  const run = launch();
  await ready(run, 'start to be ready');
  const pids = await servicePids(run.child);
  process.kill(serviceProcesses(run.child).ledger, 'SIGKILL');
  await waitFor('launcher exit', () => run.child.exitCode !== null, { timeoutMs: 30_000 });
  expect(run.child.exitCode).toBe(1);
  expect(run.output()).toContain('ledger stopped unexpectedly (SIGKILL); stopping the other services');
  expect(pids.filter(processAlive)).toEqual([]);
}, 180_000);

it('refuses to start with a clear message when infrastructure is unreachable', async () => {
  const child = spawn(process.execPath, [join(root, 'tools', 'launcher', 'start.js')], {
    cwd: root,
    env: { ...process.env, ...ports, NATS_URL: 'nats://nats.invalid:4222', LAUNCHER_SKIP_BUILD: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const code = await new Promise((resolve) => child.on('exit', resolve));
  expect(code).toBe(1);
  expect(text).toContain('NATS is unreachable at nats.invalid:4222');
  expect(text).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/); // no stack trace
}, 60_000);
