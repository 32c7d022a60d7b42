import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TestStack, waitFor } from '@pp/testing';
import type { WebhookEvent } from '../types';
import { verify } from '../webhooks/verify-webhook';

/*
 * The CLI as a merchant runs it (the built dist/ entry, a child process per
 * command) against the real stack: login, the read commands with --json,
 * trigger for each event, and listen forwarding to a local server that
 * verifies with the SDK, across restarts of the CLI and of the gateway.
 */

const CLI = join(__dirname, '..', '..', '..', '..', 'dist', 'libs', 'sdk', 'src', 'cli', 'main.js');

/** The merchant's local server: verifies every delivery with the SDK and the secret `listen --print-secret` gave. */
class VerifyingReceiver {
  readonly events: WebhookEvent[] = [];
  readonly refused: string[] = [];
  secret = '';
  private constructor(private readonly server: Server) {}

  static async start(): Promise<VerifyingReceiver> {
    const server = createServer();
    const receiver = new VerifyingReceiver(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        try {
          receiver.events.push(verify(Buffer.concat(chunks), req.headers, receiver.secret));
          res.writeHead(200).end();
        } catch (error) {
          receiver.refused.push(error instanceof Error ? error.message : String(error));
          res.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhooks`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('pp-checkout CLI against the real stack', () => {
  let stack: TestStack;
  let keys: { live_secret: string; test_secret: string };
  let env: NodeJS.ProcessEnv;
  let receiver: VerifyingReceiver;
  let listener: ChildProcess | undefined;
  let listenOutput = '';
  let listenProgress = '';

  const cli = async (args: string[], extraEnv: NodeJS.ProcessEnv = {}) => {
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], { env: { ...env, ...extraEnv }, timeout: 30_000 });
      return { status: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { status: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };
  /** The CLI with `input` on its stdin. */
  const cliWithInput = (args: string[], input: string) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (status) => resolve({ status, stdout, stderr }));
      child.stdin.end(input);
    });
  const ndjson = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);

  const startListening = (extra: string[] = []) => {
    listener = spawn(process.execPath, [CLI, 'listen', '--forward-to', receiver.url, '--interval', '200', '--json', ...extra], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    listenProgress = '';
    listener.stdout!.on('data', (chunk: Buffer) => (listenOutput += chunk.toString()));
    listener.stderr!.on('data', (chunk: Buffer) => (listenProgress += chunk.toString()));
    return waitFor('listen to be ready', () => listenProgress.includes('Ready.'));
  };
  const stopListening = async () => {
    const child = listener;
    if (!child || child.exitCode !== null) return;
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
  };
  const paymentId = (event: WebhookEvent) => ('payment_id' in event.data ? event.data.payment_id : undefined);
  const triggered = async (type: string, extra: string[] = []) => {
    const result = await cli(['trigger', type, '--json', ...extra]);
    expect([type, result.status]).toEqual([type, 0]);
    return ndjson(result.stdout)[0] as { payment_id?: string; session_id: string; reference: string; amount: number };
  };

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway', 'ledger'], label: 'sdk-cli', env: { RATE_LIMIT_TEST_PER_SECOND: '5000' } });
    for (const service of ['sessions', 'refunds'] as const) await stack.startService(service);
    const response = await fetch(`${stack.url('gateway')}/v1/admin/merchants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.env.ADMIN_TOKEN}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ name: 'CLI', email: `${randomUUID()}@example.com` }),
    });
    keys = ((await response.json()) as { keys: typeof keys }).keys;
    const configDir = mkdtempSync(join(tmpdir(), 'pp-cli-'));
    env = { PATH: process.env.PATH, PP_CONFIG_FILE: join(configDir, 'config.json'), PP_API_BASE: stack.url('gateway') };
    receiver = await VerifyingReceiver.start();
   }, 180_000); // booting the services one after another on a busy machine

  afterAll(async () => {
    await stopListening();
    await receiver?.close();
    await stack?.stop();
  });

  it('takes the key from --api-key, else PP_API_KEY, else the file `login` wrote', async () => {
    expect((await cli(['payments', 'list'])).status).toBe(2);
    const login = await cli(['login', '--key', keys.test_secret, '--json']);
    expect(login.status).toBe(0);
    expect(statSync(env.PP_CONFIG_FILE!).mode & 0o777).toBe(0o600);
    expect(ndjson((await cli(['payments', 'list', '--json'])).stdout)).toEqual([]);
    const wrong = await cli(['payments', 'list'], { PP_API_KEY: 'pp_live_test_wrong' });
    expect(wrong).toMatchObject({ status: 1, stderr: expect.stringMatching(/status 401/) });
    expect((await cli(['payments', 'list', '--api-key', keys.test_secret], { PP_API_KEY: 'pp_live_test_wrong' })).status).toBe(0);
  });

  it('takes the key piped in with --api-key-file - (or /dev/stdin), off the command line', async () => {
    const piped = await cliWithInput(['payments', 'list', '--json', '--api-key-file', '-'], `${keys.test_secret}\n`);
    expect(piped).toMatchObject({ status: 0, stderr: '' });
    const wrong = await cliWithInput(['payments', 'list', '--api-key-file', '/dev/stdin'], 'pp_live_test_wrong\n');
    expect(wrong).toMatchObject({ status: 1, stderr: expect.stringMatching(/status 401/) });
    expect(wrong.stderr).not.toContain('pp_live_test_wrong');
  });

  it('creates and shows sessions, and prints --json as one JSON object per line', async () => {
    const created = await cli(['sessions', 'create', '--amount', '1234', '--reference', 'cli-order-1', '--metadata', 'cart=7', '--json']);
    expect(created.status).toBe(0);
    const [session] = ndjson(created.stdout);
    expect(session).toMatchObject({ id: expect.any(String), reference: 'cli-order-1', status: 'PENDING' });
    const shown = await cli(['sessions', 'get', String(session.id)]);
    expect(shown.stdout).toMatch(new RegExp(`^id\\s+${session.id}$`, 'm'));
    expect(shown.stdout).toMatch(/^amount\s+1234$/m);
    expect(await cli(['sessions', 'get', 'cs_doesnotexist'])).toMatchObject({ status: 1, stderr: expect.stringMatching(/not found.*status 404, request /i) });
  });

  it('prints a stable forwarding secret with listen --print-secret, and refuses live keys', async () => {
    const first = await cli(['listen', '--print-secret']);
    const second = await cli(['listen', '--print-secret']);
    expect(first).toMatchObject({ status: 0, stdout: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{40,}\n$/) });
    expect(second.stdout).toBe(first.stdout);
    receiver.secret = first.stdout.trim();
    expect(await cli(['trigger', 'payment.confirmed', '--api-key', keys.live_secret])).toMatchObject({ status: 2, stderr: expect.stringMatching(/test mode only/) });
  });

  it('listen forwards each triggered event, verified by the receiver, and survives restarts without losing or repeating', async () => {
    await startListening();
    const confirmed = await triggered('payment.confirmed', ['--amount', '4321', '--reference', 'cli-ref-1', '--metadata', 'order=99']);
    await triggered('payment.failed');
    await triggered('payment.pending_review');
    const refunded = await triggered('payment.refunded');
    const expiredSession = await triggered('checkout.session.expired', ['--reference', 'cli-expiring']);
    await waitFor('checkout.session.expired', () =>
      receiver.events.some((event) => event.type === 'checkout.session.expired' && event.data.session_id === expiredSession.session_id && event.data.reference === 'cli-expiring'),
    { timeoutMs: 20_000 });
    const expected = ['payment.confirmed', 'payment.failed', 'payment.pending_review', 'payment.confirmed', 'payment.refunded'];
    await waitFor('the triggered payment events', () => receiver.events.filter((event) => event.type.startsWith('payment.')).length >= expected.length, { timeoutMs: 20_000 });
    const payments = receiver.events.filter((event) => event.type.startsWith('payment.'));
    expect(payments.map((event) => event.type)).toEqual(expected);
    expect(payments[0]).toMatchObject({ livemode: false, data: { payment_id: confirmed.payment_id, amount: 4321, reference: 'cli-ref-1', metadata: { order: '99' } } });
    expect(paymentId(payments[4])).toBe(refunded.payment_id);
    expect(receiver.refused).toEqual([]);
    // listen reports each delivery as an NDJSON line with the receiver's status (just after the receiver answered).
    await waitFor('a status line per delivery', () => ndjson(listenOutput).filter((line) => line.status === 200).length === receiver.events.length);

    // The CLI stops; events keep happening; the next run forwards exactly those.
    await stopListening();
    const seen = receiver.events.length;
    const whileDown = await triggered('payment.confirmed');
    await startListening();
    await waitFor('the event that happened while listen was down', () => receiver.events.some((event) => event.type === 'payment.confirmed' && paymentId(event) === whileDown.payment_id), { timeoutMs: 20_000 });

    // The gateway restarts under a running listen: it retries and carries on.
    await stack.stopService('gateway');
    await stack.startService('gateway');
    const afterRestart = await triggered('payment.failed');
    await waitFor('the event after the gateway restart', () => receiver.events.some((event) => paymentId(event) === afterRestart.payment_id), { timeoutMs: 20_000 });
    const ids = receiver.events.map((event) => event.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(receiver.events.length).toBeGreaterThan(seen);
  });

  it('lists, shows and filters events, and forwards only the chosen types with --events', async () => {
    const listed = ndjson((await cli(['events', 'list', '--type', 'payment.refunded', '--json'])).stdout);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((event) => event.type === 'payment.refunded')).toBe(true);
    const shown = await cli(['events', 'get', String(listed[0].id)]);
    expect(shown.stdout).toMatch(/^type\s+payment\.refunded$/m);
    const table = await cli(['payments', 'list', '--limit', '3']);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+STATUS\s+AMOUNT/);
    expect(table.stdout.trim().split('\n')).toHaveLength(4);

    await stopListening();
    await startListening(['--events', 'payment.failed']);
    const before = receiver.events.length;
    await triggered('payment.confirmed');
    const failed = await triggered('payment.failed');
    await waitFor('the payment.failed', () => receiver.events.some((event) => paymentId(event) === failed.payment_id), { timeoutMs: 20_000 });
    expect(receiver.events.slice(before).map((event) => event.type)).toEqual(['payment.failed']);
  });

  it('replays on request: --since start forwards the whole log again, once each, oldest first', async () => {
    await stopListening();
    const all = ndjson((await cli(['events', 'list', '--limit', '200', '--json'])).stdout).map((event) => String(event.id));
    const before = receiver.events.length;
    listener = spawn(process.execPath, [CLI, 'listen', '--forward-to', `${receiver.url}?replay`, '--since', 'start', '--interval', '200', '--json'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    await waitFor('the replay', () => receiver.events.length - before >= all.length, { timeoutMs: 30_000 });
    expect(receiver.events.slice(before).map((event) => event.id)).toEqual([...all].reverse());
  });

  it('shows a server string holding escape and bidi characters (a metadata value) without them in a table, and as the same value in --json', async () => {
    const note = 'cli-\x1b]0;pwned\x07\u202eevil';
    // A reference may not hold them (the API refuses it); a metadata value is the merchant's own and may.
    expect((await cli(['sessions', 'create', '--amount', '1000', '--reference', note])).status).toBe(1);
    const created = await cli(['sessions', 'create', '--amount', '1000', '--metadata', `note=${note}`, '--json']);
    expect(created.status).toBe(0);
    const id = String(ndjson(created.stdout)[0].id);
    const table = await cli(['sessions', 'get', id]);
    expect(table.stdout).toContain('pwned');
    expect(table.stdout.split('\n').filter((line) => /[\p{Cc}\u202a-\u202e]/u.test(line))).toEqual([]);
    const json = await cli(['sessions', 'get', id, '--json']);
    expect(json.stdout).not.toMatch(/[\u202a-\u202e]/u);
    expect((ndjson(json.stdout)[0].metadata as { note: string }).note).toBe(note);
  });
});

describe('pp-checkout CLI against a gateway that never answers', () => {
  let gateway: Server;
  const received: string[] = [];
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    // Takes each request and answers none: a hung gateway, or a proxy holding the connection.
    gateway = createServer((req) => {
      req.resume();
      received.push(`${req.method} ${req.url}`);
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    env = {
      PATH: process.env.PATH,
      PP_CONFIG_FILE: join(mkdtempSync(join(tmpdir(), 'pp-cli-hung-')), 'config.json'),
      PP_API_KEY: 'pp_live_test_hung',
      PP_API_BASE: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`,
    };
  });
  afterAll(async () => {
    gateway?.closeAllConnections();
    await new Promise((resolve) => gateway?.close(resolve));
  });

  it.each([
    [['sessions', 'create', '--amount', '100']],
    [['sessions', 'get', 'cs_1']],
    [['payments', 'list']],
    [['events', 'list']],
    [['events', 'get', 'evt_1']],
    [['events', 'resend', 'evt_1']],
    [['trigger', 'payment.confirmed']],
  ])('given %j waiting for an answer, when Ctrl-C is pressed once, then the request stops and the CLI exits 1 with a one-line message', async (argv) => {
    const { status, stderr } = await interrupted(argv);
    expect(status).toBe(1);
    // After trigger's progress line, if any.
    expect(stderr).toMatch(/(?:^|\n)error: (GET|POST) \/v1\/\S+: stopped by the caller's signal \(SIGINT\) \(request [0-9a-f-]{36}\)\n$/);
  });

  it.each([[['events', 'tail']], [['listen', '--forward-to', 'http://127.0.0.1:1/hooks']]])(
    'given %j waiting for its starting point (the newest event), when Ctrl-C is pressed once, then it stops following and exits 0',
    async (argv) => {
      const { status, stderr } = await interrupted(argv);
      expect(status).toBe(0);
      expect(stderr).not.toMatch(/error/);
    },
  );

  /** The CLI run until its one request reached the gateway, then sent SIGINT: how it ended within 5 s. */
  async function interrupted(argv: string[]): Promise<{ status: unknown; stderr: string }> {
    const before = received.length;
    const child = spawn(process.execPath, [CLI, ...argv], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (status) => resolve(status)));
    let timer: NodeJS.Timeout | undefined;
    try {
      await waitFor('the request to reach the gateway', () => received.length > before);
      child.kill('SIGINT');
      // Without the signal the request would wait out its 30 s timeout, and its retries after it.
      const status = await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(() => resolve('still running 5 s after Ctrl-C'), 5000)))]);
      expect(received.length).toBe(before + 1);
      return { status, stderr };
    } finally {
      clearTimeout(timer);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }
});
