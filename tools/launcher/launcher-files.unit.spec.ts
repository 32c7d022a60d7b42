import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processAlive } from '@pp/testing';

/*
 * The launcher's own files, in a scratch directory: the secret files of .dev/ (private-file.js), the pid
 * file that keeps two `npm start` on one port apart (pid-file.js, service-group.js), and the Postgres
 * superuser's password, which must not be on a command line (infrastructure.js), and the lock that lets one
 * launcher at a time set up what they share (setup-lock.js). Linux: /proc.
 */

/* eslint-disable @typescript-eslint/no-require-imports -- the launcher is plain CommonJS */
const { writePrivateFile } = require('./private-file') as { writePrivateFile: (file: string, text: string) => void };
const { PidFile } = require('./pid-file') as {
  PidFile: new (root: string, gatewayPort: number | string) => {
    file: string;
    claim(): void;
    recordServices(pids: number[]): void;
    holdsServices(): boolean;
    release(): void;
  };
};
const { ServiceGroup } = require('./service-group') as {
  ServiceGroup: new (
    root: string,
    services: string[],
    env: Record<string, string | undefined>,
    envFor: (service: string) => Record<string, string>,
    pidFile: InstanceType<typeof PidFile>,
  ) => { start(onCrash: () => void): void; stop(): Promise<void> };
};
type Run = (command: string, args: string[], options?: { input?: string }) => { ok: boolean; status: number | null; stdout: string; stderr: string };
const { withSetupLock } = require('./setup-lock') as { withSetupLock: <T>(root: string, work: () => Promise<T>, options?: { waitLimitMs?: number }) => Promise<T> };
const { setSuperuserPassword } = require('./infrastructure') as { setSuperuserPassword: (root: string, user: string, runCommand: Run) => string };
/* eslint-enable @typescript-eslint/no-require-imports */

let dir: string;
const started: ChildProcess[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'launcher-files-'));
});

afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const mode = (file: string) => statSync(file).mode & 0o777;
const until = async (what: string, check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
};
const exited = (child: ChildProcess) => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve)));
/** The start time /proc gives a process (what the pid file records beside the launcher's pid). */
const startTime = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
};

/** A process that just waits: another launcher, or, run from `<dir>/dist/apps/<name>`, one of this checkout's services. */
function idle(service?: string): ChildProcess {
  const args = ['-e', 'setInterval(() => {}, 1000)'];
  if (service) {
    const main = join(dir, 'dist', 'apps', service, 'src', 'main.js');
    mkdirSync(join(main, '..'), { recursive: true });
    writeFileSync(main, 'setInterval(() => {}, 1000);\n');
    args.splice(0, 2, main);
  }
  const child = spawn(process.execPath, args, { stdio: 'ignore' });
  started.push(child);
  return child;
}

describe('writePrivateFile', () => {
  it('replaces a file that was readable by others with a new one of mode 600, never writing into the old one', () => {
    const file = join(dir, '.dev', 'secrets.json');
    mkdirSync(join(dir, '.dev'));
    writeFileSync(file, 'old');
    chmodSync(file, 0o644);
    // Whoever opened the old file (here a second name for it) never sees the secret.
    linkSync(file, join(dir, 'old-name'));

    writePrivateFile(file, 'secret');

    expect(readFileSync(file, 'utf8')).toBe('secret');
    expect(mode(file)).toBe(0o600);
    expect(readFileSync(join(dir, 'old-name'), 'utf8')).toBe('old');
    expect(readdirSync(join(dir, '.dev'))).toEqual(['secrets.json']);
  });

  it('creates the directory it needs readable by this user alone', () => {
    const file = join(dir, 'new', 'identities.json');
    writePrivateFile(file, '{}');
    expect(mode(join(dir, 'new'))).toBe(0o700);
    expect(mode(file)).toBe(0o600);
  });
});

describe('the setup lock', () => {
  const lockFile = () => join(dir, 'tmp', 'setup.lock');
  /** Another launcher: takes the lock, says so on stdout, holds it `holdMs`, then lets go and says when. */
  const otherLauncher = (holdMs: number) => {
    const script = `require(${JSON.stringify(join(__dirname, 'setup-lock.js'))}).withSetupLock(${JSON.stringify(dir)}, async () => { console.log('took'); await new Promise((r) => setTimeout(r, ${holdMs})); console.log('releasing', Date.now()); })`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    started.push(child);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    return { child, output: () => output };
  };

  it('given another live launcher holding it, then the work waits until it lets go, saying so once, and the lock is gone after', async () => {
    const other = otherLauncher(1500);
    await until('the other launcher to take the lock', () => other.output().includes('took'));
    const lines: string[] = [];
    const said = jest.spyOn(console, 'error').mockImplementation((line: unknown) => void lines.push(String(line)));
    let ranAt = 0;
    try {
      await withSetupLock(dir, async () => void (ranAt = Date.now()));
    } finally {
      said.mockRestore();
    }
    const releasedAt = Number(/releasing (\d+)/.exec(other.output())?.[1]);
    expect(ranAt).toBeGreaterThanOrEqual(releasedAt);
    expect(lines.filter((line) => line.includes('waiting for another launcher'))).toEqual([`    waiting for another launcher (pid ${other.child.pid}) to finish setting up the servers, roles and identities ...`]);
    expect(existsSync(lockFile())).toBe(false);
  });

  it('given a lock left by a launcher that died, then it is taken over at once', async () => {
    const gone = idle();
    await until('the process to start', () => existsSync(`/proc/${gone.pid}/stat`));
    const goneStart = startTime(gone.pid!);
    gone.kill('SIGKILL');
    await exited(gone);
    mkdirSync(join(dir, 'tmp'));
    writeFileSync(lockFile(), JSON.stringify({ launcher: gone.pid, started: goneStart }));

    const began = Date.now();
    expect(await withSetupLock(dir, async () => readFileSync(lockFile(), 'utf8'))).toContain(`"launcher":${process.pid}`);
    expect(Date.now() - began).toBeLessThan(1000);
    expect(existsSync(lockFile())).toBe(false);
  });

  it('given work that fails, then the lock is let go all the same', async () => {
    await expect(withSetupLock(dir, async () => Promise.reject(new Error('apt-get failed')))).rejects.toThrow('apt-get failed');
    expect(existsSync(lockFile())).toBe(false);
  });

  it('given a holder that never lets go, then it gives up after the wait limit, naming the holder and the file', async () => {
    const holder = idle();
    await until('the process to start', () => existsSync(`/proc/${holder.pid}/stat`));
    mkdirSync(join(dir, 'tmp'));
    writeFileSync(lockFile(), JSON.stringify({ launcher: holder.pid, started: startTime(holder.pid!) }));
    const said = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await expect(withSetupLock(dir, async () => undefined, { waitLimitMs: 600 })).rejects.toThrow(`another launcher (pid ${holder.pid}) has been setting up for`);
    } finally {
      said.mockRestore();
    }
    expect(existsSync(lockFile())).toBe(true);
  });
});

describe('the pid file', () => {
  it('refuses to start while the launcher named in it runs, leaving its services alone', async () => {
    const other = idle();
    const service = idle('ledger');
    await until('the processes to start', () => existsSync(`/proc/${other.pid}/stat`) && readFileSync(`/proc/${service.pid}/cmdline`, 'utf8').includes(join(dir, 'dist', 'apps')));
    const pidFile = new PidFile(dir, 3000);
    mkdirSync(join(dir, 'tmp'));
    const record = JSON.stringify({ launcher: other.pid, started: startTime(other.pid!), services: [service.pid] });
    writeFileSync(pidFile.file, record);

    expect(() => pidFile.claim()).toThrow(`already running (pid ${other.pid}); stop it first`);
    expect(processAlive(service.pid!)).toBe(true);
    pidFile.release();
    expect(readFileSync(pidFile.file, 'utf8')).toBe(record);

    // Once that launcher is gone (killed outright), the next start stops what it left and takes the file.
    other.kill('SIGKILL');
    await exited(other);
    pidFile.claim();
    await exited(service);
    expect(service.signalCode).toBe('SIGKILL');
    expect(JSON.parse(readFileSync(pidFile.file, 'utf8'))).toMatchObject({ launcher: process.pid, services: [] });
    pidFile.release();
    expect(existsSync(pidFile.file)).toBe(false);
  });

  it('takes a pid the system gave to another process since, or an older launcher’s list of pids, as a launcher that is gone', async () => {
    const unrelated = idle();
    const service = idle('gateway');
    await until('the processes to start', () => existsSync(`/proc/${unrelated.pid}/stat`) && readFileSync(`/proc/${service.pid}/cmdline`, 'utf8').includes(join(dir, 'dist', 'apps')));
    const pidFile = new PidFile(dir, 4000);
    mkdirSync(join(dir, 'tmp'));
    writeFileSync(pidFile.file, JSON.stringify({ launcher: unrelated.pid, started: '1', services: [] }));
    pidFile.claim();
    expect(processAlive(unrelated.pid!)).toBe(true);
    pidFile.release();

    writeFileSync(pidFile.file, `${service.pid}\n${unrelated.pid}`);
    pidFile.claim();
    await exited(service);
    // Only this checkout's services are stopped, never another process that took a listed pid.
    expect(processAlive(unrelated.pid!)).toBe(true);
    pidFile.release();
  });

  it('creates the file exclusively, and a launcher removes only its own', () => {
    const first = new PidFile(dir, 3000);
    first.claim();
    const other = JSON.stringify({ launcher: process.ppid, started: startTime(process.ppid), services: [] });
    writeFileSync(first.file, other); // another launcher's now
    first.release();
    expect(readFileSync(first.file, 'utf8')).toBe(other);
    // One file per gateway port: a stack on another port is not in the way.
    const elsewhere = new PidFile(dir, 3100);
    elsewhere.claim();
    elsewhere.release();
    expect(() => new PidFile(dir, 3000).claim()).toThrow(`already running (pid ${process.ppid})`);
  });

  it('records the services a group starts and is removed when the group stops', async () => {
    mkdirSync(join(dir, 'dist', 'libs', 'platform', 'src', 'app'), { recursive: true });
    writeFileSync(join(dir, 'dist', 'libs', 'platform', 'src', 'app', 'node-flags.js'), 'module.exports = { SERVICE_NODE_FLAGS: [] };\n');
    for (const name of ['gateway', 'ledger']) {
      mkdirSync(join(dir, 'dist', 'apps', name, 'src'), { recursive: true });
      writeFileSync(join(dir, 'dist', 'apps', name, 'src', 'main.js'), "process.on('SIGTERM', () => process.exit(0)); setInterval(() => {}, 1000);\n");
    }
    const pidFile = new PidFile(dir, 3000);
    pidFile.claim();
    const group = new ServiceGroup(dir, ['gateway', 'ledger'], { PATH: process.env.PATH }, () => ({}), pidFile);
    group.start(() => undefined);
    const recorded = JSON.parse(readFileSync(pidFile.file, 'utf8')) as { launcher: number; services: number[] };
    expect(recorded.launcher).toBe(process.pid);
    expect(recorded.services).toHaveLength(2);
    expect(pidFile.holdsServices()).toBe(true);
    await group.stop();
    expect(recorded.services.filter(processAlive)).toEqual([]);
    expect(existsSync(pidFile.file)).toBe(false);
  });
});

describe('setSuperuserPassword', () => {
  it('gives psql the password on its standard input, not on a command line others can read', () => {
    // A stand-in for run-command's run: nothing is executed, and no real cluster's password changes.
    const calls: { command: string; args: string[]; options: { input?: string } }[] = [];
    const password = setSuperuserPassword(dir, 'postgres', (command, args, options = {}) => {
      calls.push({ command, args, options });
      return { ok: true, status: 0, stdout: '', stderr: '' };
    });
    expect(password).toMatch(/^[0-9a-f]{48}$/);
    expect(calls).toHaveLength(1);
    const [{ command, args, options }] = calls;
    expect([command, ...args]).toEqual(['su', 'postgres', '-c', expect.stringMatching(/^psql .*-v ON_ERROR_STOP=1/)]);
    expect(args.join(' ')).not.toContain(password);
    expect(options.input).toBe(`ALTER USER postgres PASSWORD '${password}';\n`);
    const saved = join(dir, '.dev', 'postgres-superuser.json');
    expect(JSON.parse(readFileSync(saved, 'utf8'))).toEqual({ user: 'postgres', password });
    expect(mode(saved)).toBe(0o600);
  });
});
