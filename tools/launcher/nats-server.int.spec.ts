import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * The launcher starting the project's NATS server (nats-server.js) in a scratch checkout (its own
 * .dev/nats, the real dist/): it records the server only once that server itself listens. A port
 * another process took between the launcher's check and the server's start must stop the launcher,
 * not pass for the server.
 */

const root = join(__dirname, '..', '..');
let dir: string;
const toKill: number[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'launcher-nats-'));
  symlinkSync(join(root, 'dist'), join(dir, 'dist'));
});

afterEach(() => {
  for (const pid of toKill.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

/** Runs ensureNatsServer for the scratch checkout in its own process (it exits the process on failure). */
function ensure(path = process.env.PATH ?? ''): Promise<{ code: number | null; output: string }> {
  const script = `require(${JSON.stringify(join(__dirname, 'nats-server.js'))}).ensureNatsServer(${JSON.stringify(dir)}, () => false).then((r) => { console.log('port ' + r.port); process.exit(0); })`;
  const child = spawn(process.execPath, ['-e', script], { env: { ...process.env, PATH: path }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

const statePath = () => join(dir, '.dev', 'nats', 'server.json');

it('starts the server and records it once it listens', async () => {
  const { code, output } = await ensure();
  const state = existsSync(statePath()) ? (JSON.parse(readFileSync(statePath(), 'utf8')) as { pid: number; port: number }) : undefined;
  if (state) toKill.push(state.pid);
  expect({ code, output }).toEqual({ code: 0, output: expect.stringContaining("NATS: started the project's server") });
  expect(output).toContain(`port ${state!.port}`);
  expect(readdirSync(join(dir, '.dev', 'nats', 'ports'))).toEqual([`nats-server_${state!.pid}.ports`]);
}, 60_000);

it('stops the server it started when asked (a CI run ending), and only a server of this checkout', async () => {
  expect((await ensure()).code).toBe(0);
  const state = JSON.parse(readFileSync(statePath(), 'utf8')) as { pid: number };
  toKill.push(state.pid);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the launcher is plain CommonJS
  const { stopNatsServer } = require('./nats-server') as { stopNatsServer: (root: string) => boolean };
  // A state file naming a process that is not this checkout's server (here, the test itself) is left alone.
  writeFileSync(statePath(), JSON.stringify({ ...state, pid: process.pid }));
  expect(stopNatsServer(dir)).toBe(false);
  writeFileSync(statePath(), JSON.stringify(state));
  expect(stopNatsServer(dir)).toBe(true);
  const gone = async () => !existsSync(`/proc/${state.pid}`) || readFileSync(`/proc/${state.pid}/stat`, 'utf8').split(' ')[2] === 'Z';
  for (let i = 0; i < 50 && !(await gone()); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(await gone()).toBe(true);
}, 60_000);

it('clears the ports files servers that are gone left, so none can pass for the new server', async () => {
  // One left by a server killed outright (its pid gone), one whose pid the system has given to another process since.
  const gone = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => gone.on('exit', resolve));
  const ports = join(dir, '.dev', 'nats', 'ports');
  mkdirSync(ports, { recursive: true });
  for (const pid of [gone.pid, process.pid]) writeFileSync(join(ports, `nats-server_${pid}.ports`), '{"nats":["nats://127.0.0.1:4322"]}');

  const { code, output } = await ensure();
  const state = existsSync(statePath()) ? (JSON.parse(readFileSync(statePath(), 'utf8')) as { pid: number }) : undefined;
  if (state) toKill.push(state.pid);
  expect({ code, output }).toEqual({ code: 0, output: expect.stringContaining("NATS: started the project's server") });
  expect(readdirSync(ports)).toEqual([`nats-server_${state!.pid}.ports`]);
}, 60_000);

it('stops with a message, and records nothing, when the server it started exits because another process took the port', async () => {
  // A stand-in nats-server: another process takes the configured port, and the server exits as the real one does then.
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  const holderPid = join(dir, 'holder.pid');
  writeFileSync(
    join(bin, 'nats-server'),
    `#!${process.execPath}
const { spawn } = require('node:child_process');
const { readFileSync, writeFileSync } = require('node:fs');
const port = /listen: "127\\.0\\.0\\.1:(\\d+)"/.exec(readFileSync(process.argv[process.argv.indexOf('-c') + 1], 'utf8'))[1];
const holder = spawn(process.execPath, ['-e', "require('node:net').createServer().listen(" + port + ", '127.0.0.1', () => console.log('up'))"], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
holder.stdout.once('data', () => {
  writeFileSync(${JSON.stringify(holderPid)}, String(holder.pid));
  console.error('[FTL] Error listening on port: 127.0.0.1:' + port + ', "bind: address already in use"');
  process.exit(1);
});
`,
    { mode: 0o755 },
  );
  const { code, output } = await ensure(`${bin}:${process.env.PATH}`);
  if (existsSync(holderPid)) toKill.push(Number(readFileSync(holderPid, 'utf8')));
  expect(existsSync(holderPid)).toBe(true);
  expect(code).toBe(1);
  expect(output).toMatch(/the project's NATS server stopped \(exit code 1\) before it listened on 127\.0\.0\.1:\d+; is the port taken\?/);
  expect(existsSync(statePath())).toBe(false);
}, 60_000);
