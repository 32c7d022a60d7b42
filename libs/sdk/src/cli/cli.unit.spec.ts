import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redactSecrets } from '../redact-secrets';
import { integerOption, listOption, metadataOption, parseArgs, UsageError } from './args';
import { findCommand } from './commands';
import { readConfig } from './config';
import { type FollowState, recordHandled } from '../events/follow-state';
import { forwardingSecret } from './listen';
import { main } from './main';
import { eventTypesOption, intervalOption, sinceOption } from './option-values';

describe('CLI arguments', () => {
  it('splits positionals from --name value, --name=value and value-less flags', () => {
    const args = parseArgs(['events', 'list', '--type', 'payment.confirmed', '--limit=5', '--json', '--', '--literal']);
    expect(args.positionals).toEqual(['events', 'list', '--literal']);
    expect(Object.fromEntries(args.options)).toEqual({ type: 'payment.confirmed', limit: '5', json: true });
    expect(integerOption(args, 'limit')).toBe(5);
  });

  it('refuses an option without its value, and a non-numeric number', () => {
    expect(() => parseArgs(['trigger', 'payment.confirmed', '--amount'])).toThrow(UsageError);
    expect(() => parseArgs(['trigger', '--amount', '--json'])).toThrow(/--amount needs a value/);
    expect(() => integerOption(parseArgs(['--amount', '12.5']), 'amount')).toThrow(/whole number/);
  });

  it('reads metadata as key=value pairs or a JSON object, and lists as comma-separated', () => {
    expect(metadataOption(parseArgs(['--metadata', 'order=42,note=a=b']))).toEqual({ order: '42', note: 'a=b' });
    expect(metadataOption(parseArgs(['--metadata', '{"order":"42"}']))).toEqual({ order: '42' });
    expect(() => metadataOption(parseArgs(['--metadata', 'oops']))).toThrow(/key=value/);
    expect(() => metadataOption(parseArgs(['--metadata', '{"order":']))).toThrow(UsageError);
    expect(() => metadataOption(parseArgs(['--metadata', '{order: 42}']))).toThrow(/^--metadata is not valid JSON \(.*\); or use key=value/);
    expect(listOption(parseArgs(['--events', 'payment.confirmed, payment.failed,']), 'events')).toEqual(['payment.confirmed', 'payment.failed']);
  });

  it('finds two-word commands before one-word ones', () => {
    expect(findCommand(['events', 'list'])?.name).toBe('events list');
    expect(findCommand(['trigger', 'payment.failed'])?.name).toBe('trigger');
    expect(findCommand(['events'])).toBeUndefined();
  });

  it('derives a forwarding secret that is stable per key and differs between keys', () => {
    expect(forwardingSecret('pp_live_test_a')).toBe(forwardingSecret('pp_live_test_a'));
    expect(forwardingSecret('pp_live_test_a')).not.toBe(forwardingSecret('pp_live_test_b'));
    expect(forwardingSecret('pp_live_test_a')).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  });
});

describe('checking a command line before any request', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let fetch: jest.SpyInstance;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pp-cli-args-'));
    env = { PP_CONFIG_FILE: join(dir, 'config.json'), PP_API_KEY: 'pp_live_test_env' };
    // Were a command to run anyway, the gateway refuses the key: the follower stops (exit 1) instead of following for ever.
    fetch = jest.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response('{"error":"Invalid API key"}', { status: 401 }));
  });
  afterEach(() => {
    jest.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  /** `pp-checkout …` in this process: its exit status and what it wrote to stderr. */
  const run = async (...argv: string[]) => {
    const { stdout: _stdout, ...rest } = await runCapturing(...argv);
    return rest;
  };
  /** The same, with what it wrote to stdout too. */
  const runCapturing = async (...argv: string[]) => {
    const stdout: string[] = [];
    const stderr: string[] = [];
    jest.spyOn(process.stdout, 'write').mockImplementation((text) => (stdout.push(String(text)), true));
    jest.spyOn(process.stderr, 'write').mockImplementation((text) => (stderr.push(String(text)), true));
    return { status: await main(argv, env), stderr: stderr.join(''), stdout: stdout.join('') };
  };
  /** What the n-th request carried. */
  const sent = (n = 0) => ({ headers: new Headers(fetch.mock.calls[n][1]?.headers), body: JSON.parse(String(fetch.mock.calls[n][1]?.body ?? 'null')) as Record<string, unknown> | null });

  it.each([
    [['payments', 'list', '--stauts', 'CONFIRMED'], '--stauts'],
    [['listen', '--forward-to', 'http://127.0.0.1:9/hooks', '--event', 'payment.failed'], '--event'],
    [['events', 'tail', '--since=start', '--forward-to', 'http://127.0.0.1:9/hooks'], '--forward-to'],
    [['sessions', 'get', 'cs_1', '--json', '--limit', '3'], '--limit'],
  ])('given an option the command does not take (%j), when run, then it is a usage error naming it', async (argv, name) => {
    expect(await run(...argv)).toEqual({ status: 2, stderr: expect.stringContaining(`error: Unknown option ${name}\n`) });
    expect(fetch).not.toHaveBeenCalled();
  });

  it.each([
    [['listen', '--forward-to', 'http://127.0.0.1:9/hooks', '--events', 'payment.confirmd'], /Unknown event type payment\.confirmd/],
    [['listen', '--forward-to', 'http://127.0.0.1:9/hooks', '--events', ','], /--events needs at least one event type/],
    [['events', 'tail', '--since', 'evt_1'], /--since takes an event id \(evt_…\) or "start"/],
    [['listen', '--forward-to', 'http://127.0.0.1:9/hooks', '--since', 'evt_abc'], /--since takes an event id/],
    [['events', 'tail', '--interval', String(2 ** 31)], /--interval is in milliseconds, at most 3600000/],
    [['events', 'tail', '--interval', '0'], /^error: --interval is in milliseconds, at least 100 \(got 0\)\n/],
    [['listen', '--forward-to', 'http://127.0.0.1:9/hooks', '--interval', '99'], /--interval is in milliseconds, at least 100/],
    [['listen', '--forward-to', 'http://127.0.0.1:9/hooks', '--interval', '3600001'], /--interval is in milliseconds/],
    [['payments', 'list', '--status', 'confirmed'], /Unknown payment status confirmed; one of: PENDING, CONFIRMED,/],
    [['sessions', 'create', '--amount', '100', '--metadata', '{"cart":'], /--metadata is not valid JSON/],
    [['payments', 'list', '--api-key='], /^error: --api-key needs a value\n/],
  ])('given a value the gateway or a timer cannot use (%j), when run, then it is a usage error before any request', async (argv, message) => {
    expect(await run(...argv)).toEqual({ status: 2, stderr: expect.stringMatching(message) });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('accepts every known event type or * in --events, and start or a gateway event id in --since', () => {
    expect(eventTypesOption(parseArgs(['--events', '*,payment.failed,checkout.session.expired']))).toEqual(['*', 'payment.failed', 'checkout.session.expired']);
    expect(sinceOption(parseArgs(['--since', 'start']))).toBe('start');
    expect(sinceOption(parseArgs(['--since', 'evt_abc123def456']))).toBe('evt_abc123def456');
    expect(sinceOption(parseArgs([]))).toBeUndefined();
  });

  it('accepts an --interval from 100 ms', () => {
    expect(intervalOption(parseArgs(['--interval', '100']))).toBe(100);
    expect(intervalOption(parseArgs([]))).toBe(1000);
  });

  it('given a key typed where the command goes (`-api-key pp_live_…`, one dash), when refused as an unknown command, then the key is not printed back, and the refusal says options take two dashes', async () => {
    const refused = await run('-api-key', 'pp_live_AbCdEf0123456789', 'sessions', 'get', 'cs_1');
    expect(refused).toEqual({ status: 2, stderr: expect.stringMatching(/^error: Unknown command -api-key pp_…\(redacted\) \(options start with two dashes: --api-key, not -api-key\)\n\nUsage:/) });
    expect(refused.stderr).not.toContain('AbCdEf0123456789');
    expect(fetch).not.toHaveBeenCalled();
    const secret = await run('whsec_S3cr3tS3cr3t', 'listen');
    expect(secret.stderr).toMatch(/^error: Unknown command whsec_…\(redacted\) listen\n/);
    expect(secret.stderr).not.toContain('S3cr3t');
  });

  it.each([
    [['trigger', 'pp_live_test_AbCdEf0123456789']],
    [['events', 'tail', '--interval', 'pp_live_AbCdEf0123456789']],
    [['sessions', 'create', '--amount', '100', '--metadata', 'pp_live_AbCdEf0123456789']],
    [['sessions', 'create', '--amount', '100', '--metadata', '{"order": pp_live_AbCdEf0123456789}']],
    [['payments', 'list', '--pp_live_AbCdEf0123456789']],
  ])('given a key where a value goes (%j), when refused, then the key is not printed back', async (argv) => {
    const refused = await run(...argv);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('pp_…(redacted)');
    expect(refused.stderr).not.toContain('pp_live_A');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('cuts words that look like secrets to their prefix, and leaves other words alone', () => {
    expect(redactSecrets('-api-key=pp_live_abc sessions whsec_xyz app_x')).toBe('-api-key=pp_…(redacted) sessions whsec_…(redacted) app_x');
  });

  it('given the key in --api-key-file, when a command runs, then it sends the key the file holds, trimmed, before PP_API_KEY', async () => {
    const file = join(dir, 'key');
    writeFileSync(file, '  pp_live_test_fromfile\n');
    expect((await run('payments', 'list', '--api-key-file', file)).status).toBe(1);
    expect(sent().headers.get('authorization')).toBe('Bearer pp_live_test_fromfile');
    expect((await run('login', `--api-key-file=${file}`)).status).toBe(0);
    expect(readConfig(env).api_key).toBe('pp_live_test_fromfile');
  });

  it.each([
    [['--api-key-file', 'missing'], /^error: Cannot read --api-key-file .*missing \(ENOENT\)\n/],
    [['--api-key-file', 'empty'], /^error: --api-key-file .*empty holds no key/],
    [['--api-key-file', 'two-lines'], /^error: The key holds characters no key has/],
    [['--api-key-file', 'key', '--api-key', 'pp_live_test_flag'], /^error: Pass the key one way: --api-key or --api-key-file, not both/],
  ])('given --api-key-file that does not give one key (%j), when a command runs, then it is a usage error that does not repeat the file', async (argv, message) => {
    writeFileSync(join(dir, 'empty'), ' \n');
    writeFileSync(join(dir, 'two-lines'), 'pp_live_test_one\npp_live_test_two\n');
    writeFileSync(join(dir, 'key'), 'pp_live_test_one\n');
    const refused = await run('payments', 'list', ...argv.map((arg) => (arg.startsWith('--') || arg.startsWith('pp_') ? arg : join(dir, arg))));
    expect(refused).toEqual({ status: 2, stderr: expect.stringMatching(message) });
    expect(refused.stderr).not.toContain('pp_live_test_one');
    expect(fetch).not.toHaveBeenCalled();
  });

  it.each([
    [['--api-key-file', 'pp_live_AbC123secret'], /^error: Cannot read --api-key-file pp_…\(redacted\) \(ENOENT\)\n/],
    [['--api-base', 'pp_live_AbC123secret', '--api-key', 'pp_live_test_flag'], /^error: The API base pp_…\(redacted\) is not a URL/],
  ])('given the key itself where a file or the API base goes (%j, as --api-key-file "$KEY" would), when a command runs, then the refusal does not print it', async (argv, message) => {
    const refused = await run('payments', 'list', ...argv);
    expect(refused).toEqual({ status: 2, stderr: expect.stringMatching(message) });
    expect(refused.stderr).not.toContain('AbC123');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('given a plain-http gateway on another machine, when listen --print-secret runs, then it prints the secret from the key alone and exits 0, without any request; --json prints it as a JSON line', async () => {
    env.PP_API_BASE = 'http://gateway.example:3000';
    expect(await runCapturing('listen', '--print-secret')).toEqual({ status: 0, stderr: '', stdout: `${forwardingSecret('pp_live_test_env')}\n` });
    expect(await runCapturing('listen', '--print-secret', '--json', '--api-base', 'http://10.0.0.5:3000')).toEqual({ status: 0, stderr: '', stdout: `{"secret":"${forwardingSecret('pp_live_test_env')}"}\n` });
    expect(fetch).not.toHaveBeenCalled();
    expect(await run('listen', '--print-secret', '--api-key', 'pp_live_abc')).toEqual({ status: 2, stderr: expect.stringMatching(/^error: listen works in test mode only/) });
    // Listening itself still refuses to send the key in clear text.
    expect(await run('listen', '--forward-to', 'http://127.0.0.1:9/hooks')).toEqual({ status: 2, stderr: expect.stringMatching(/^error: .*http/) });
  });

  it('given a live key and no --success-url or --cancel-url, when sessions create runs, then it is a usage error before any request; a test key gets the localhost placeholders', async () => {
    for (const argv of [[], ['--success-url', 'https://shop.example/ok'], ['--cancel-url', 'https://shop.example/cancel']]) {
      const refused = await run('sessions', 'create', '--amount', '100', '--api-key', 'pp_live_abc', '--api-base', 'https://gateway.example', ...argv);
      expect(refused).toEqual({ status: 2, stderr: expect.stringMatching(/^error: sessions create with a live key needs --success-url and --cancel-url/) });
    }
    expect(fetch).not.toHaveBeenCalled();
    await run('sessions', 'create', '--amount', '100', '--api-key', 'pp_live_abc', '--api-base', 'https://gateway.example', '--success-url', 'https://shop.example/ok', '--cancel-url', 'https://shop.example/cancel');
    expect(sent(0).body).toMatchObject({ success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/cancel' });
    await run('sessions', 'create', '--amount', '100');
    expect(sent(1).body).toMatchObject({ success_url: 'http://localhost/success', cancel_url: 'http://localhost/cancel' });
  });

  it('given an unknown command, when run, then it says so on stderr with the usage, and exits 2', async () => {
    const refused = await run('sessions', 'lsit', '--json');
    expect(refused).toEqual({ status: 2, stderr: expect.stringMatching(/^error: Unknown command sessions lsit\n\nUsage: pp-checkout/) });
    expect(fetch).not.toHaveBeenCalled();
    expect(await run()).toEqual({ status: 0, stderr: '' });
  });

  it.each([
    ['a space', 'pp_live_test_abc def'],
    ['a NUL', 'pp_live_test_abc\0'],
  ])('given a key holding %s in PP_API_KEY, when a command needs it, then it is a usage error that does not repeat the key', async (_what, key) => {
    env.PP_API_KEY = key;
    const refused = await run('payments', 'list');
    expect(refused).toEqual({ status: 2, stderr: expect.stringMatching(/^error: The key holds characters no key has/) });
    expect(refused.stderr).not.toContain('abc');
    expect(fetch).not.toHaveBeenCalled();
  });

  it.each([['help'], ['--help'], ['payments', '--help']])('given `%s`, then the usage is printed and the status is 0, without a request', async (...argv) => {
    const stdout: string[] = [];
    jest.spyOn(process.stdout, 'write').mockImplementation((text) => (stdout.push(String(text)), true));
    expect(await main(argv, env)).toBe(0);
    expect(stdout.join('')).toMatch(/listen/);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('given a key with the line break of the file it was read from, when listen derives its secret, then it is the key’s own', async () => {
    env.PP_API_KEY = 'pp_live_test_env\n';
    const stdout: string[] = [];
    jest.spyOn(process.stdout, 'write').mockImplementation((text) => (stdout.push(String(text)), true));
    expect(await main(['listen', '--print-secret'], env)).toBe(0);
    expect(stdout.join('')).toBe(`${forwardingSecret('pp_live_test_env')}\n`);
  });

  it.each([
    ['http://', /^error: --forward-to http:\/\/ is not a URL: give the receiver's whole address/],
    ['https://shop example/hooks', /^error: --forward-to https:\/\/shop example\/hooks is not a URL/],
    ['http://u:secret@127.0.0.1:9/hooks', /^error: --forward-to http:\/\/…@127\.0\.0\.1:9\/hooks holds a user name or password/],
  ])('given --forward-to %s, which fetch cannot send to, when listen starts, then it is a usage error before any request, without the password', async (forwardTo, message) => {
    const refused = await run('listen', '--forward-to', forwardTo);
    expect(refused).toEqual({ status: 2, stderr: expect.stringMatching(message) });
    expect(refused.stderr).not.toContain('u:secret');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('given PP_API_BASE when logging in, when a later command runs with the saved key and no PP_API_BASE, then it goes to that gateway', async () => {
    env.PP_API_BASE = 'https://gateway.example';
    expect(await runCapturing('login', '--json')).toMatchObject({ status: 0, stdout: expect.stringContaining('"gateway":"https://gateway.example"') });
    expect(readConfig(env)).toEqual({ api_key: 'pp_live_test_env', api_base: 'https://gateway.example' });
    delete env.PP_API_KEY;
    delete env.PP_API_BASE;
    await run('payments', 'list');
    expect(String(fetch.mock.calls[0][0])).toMatch(/^https:\/\/gateway\.example\/v1\/payments\?/);
  });

  it('given no gateway named when logging in, when the key is saved, then the default gateway is saved with it, so a later PP_API_BASE naming another is refused', async () => {
    expect((await run('login')).status).toBe(0);
    expect(readConfig(env)).toEqual({ api_key: 'pp_live_test_env', api_base: 'http://localhost:3000' });
    delete env.PP_API_KEY;
    env.PP_API_BASE = 'https://other.example';
    expect(await run('payments', 'list')).toEqual({ status: 2, stderr: expect.stringMatching(/^error: The key `login` saved is for http:\/\/localhost:3000, and PP_API_BASE names https:\/\/other\.example/) });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('given a config file an older CLI wrote (a key, no gateway), when a command runs with PP_API_BASE, then the key goes there as before, with a warning on stderr to log in again', async () => {
    writeFileSync(env.PP_CONFIG_FILE!, '{"api_key":"pp_live_test_old"}\n');
    delete env.PP_API_KEY;
    env.PP_API_BASE = 'https://gateway.example';
    const { status, stderr } = await run('payments', 'list', '--json');
    expect(status).toBe(1);
    expect(String(fetch.mock.calls[0][0])).toMatch(/^https:\/\/gateway\.example\/v1\/payments\?/);
    expect(sent().headers.get('authorization')).toBe('Bearer pp_live_test_old');
    expect(stderr.split('\n')[0]).toMatch(/^warning: the key `login` saved names no gateway .*https:\/\/gateway\.example.*run `login` again/);
  });

  it('given --no-color, which older scripts pass, when a command runs, then it is accepted and changes nothing, wherever it stands', async () => {
    expect(parseArgs(['--no-color', 'payments', 'list']).positionals).toEqual(['payments', 'list']);
    expect(await run('--no-color', 'payments', 'list')).toEqual({ status: 1, stderr: expect.stringMatching(/^error: Invalid API key \(status 401/) });
    expect(await run('payments', 'list', '--no-color')).toEqual({ status: 1, stderr: expect.stringMatching(/^error: Invalid API key \(status 401/) });
  });

  it('given PP_API_BASE set but empty, when logging in and when a command runs, then both take it as unset and use the default gateway', async () => {
    env.PP_API_BASE = '';
    expect(await runCapturing('login', '--json')).toMatchObject({ status: 0, stdout: expect.stringContaining('"gateway":"http://localhost:3000"') });
    expect(await run('payments', 'list')).toEqual({ status: 1, stderr: expect.stringMatching(/^error: Invalid API key \(status 401/) });
    expect(String(fetch.mock.calls[0][0])).toMatch(/^http:\/\/localhost:3000\/v1\/payments\?/);
  });

  it('given the key in --api-key, when logging in with another in PP_API_KEY, then the one passed is saved', async () => {
    expect((await run('login', '--api-key', 'pp_live_test_flag')).status).toBe(0);
    expect(readConfig(env).api_key).toBe('pp_live_test_flag');
  });

  it.each([
    ['a line break', 'pp_live_test_abc\r\nX-Injected: 1'],
    ['a space', 'pp_live_test_abc def'],
    ['a NUL', 'pp_live_test_abc\0'],
  ])('given a key holding %s, when logging in, then it is refused without repeating the key, and nothing is saved', async (_what, key) => {
    const refused = await run('login', '--key', key);
    expect(refused).toEqual({ status: 2, stderr: expect.stringMatching(/characters no key has/) });
    expect(refused.stderr).not.toContain('abc');
    expect(readConfig(env)).toEqual({});
  });

  it('given a key the gateway refuses, when tailing events, then it stops with exit status 1 and says to log in', async () => {
    expect(await run('events', 'tail', '--since', 'start')).toEqual({ status: 1, stderr: expect.stringMatching(/^error: Invalid API key \(status 401, request .*run `login`/m) });
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('following the event log', () => {
  const event = (id: string, atMs: number) => ({ id, type: 'payment.confirmed', livemode: false, data: {}, created_at: new Date(atMs).toISOString() });
  const T = Date.UTC(2026, 10, 23, 18, 0, 0);

  it('remembers handled ids within the settle window, forgets older ones, and never moves its time back', () => {
    let state: FollowState = { since_ms: T, handled: { evt_a: T } };
    state = recordHandled(state, event('evt_b', T + 20_000));
    expect(state).toEqual({ since_ms: T + 20_000, handled: { evt_b: T + 20_000 } });
    state = recordHandled(state, event('evt_late', T + 15_000));
    expect(state).toEqual({ since_ms: T + 20_000, handled: { evt_b: T + 20_000, evt_late: T + 15_000 } });
  });
});
