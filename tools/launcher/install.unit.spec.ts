import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * The launcher's package install (install.js) in a scratch checkout whose node_modules is older than its
 * lock file, with npm a stand-in for run-command's run: what it runs when `npm ci` refuses the lock file.
 */

type RunResult = { ok: boolean; status: number | null; stdout: string; stderr: string };
type Run = (command: string, args: string[], options?: { cwd?: string }) => RunResult;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the launcher is plain CommonJS
const { ensurePackages } = require('./install') as { ensurePackages: (root: string, env: Record<string, string | undefined>, runCommand: Run) => void };

/** What npm ci says when the registry lacks a package the lock file names (another platform's optional binary). */
const REFUSED: RunResult = {
  ok: false,
  status: 1,
  stdout: '',
  stderr: 'npm error `npm ci` can only install packages when your package.json and package-lock.json or npm-shrinkwrap.json are in sync.\n',
};

let dir: string;
let messages: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'launcher-install-'));
  writeFileSync(join(dir, 'package-lock.json'), '{"lockfileVersion":3}\n');
  // node_modules from before the lock file changed.
  mkdirSync(join(dir, 'node_modules'));
  writeFileSync(join(dir, 'node_modules', '.package-lock.json'), '{}');
  utimesSync(join(dir, 'node_modules', '.package-lock.json'), new Date(2000, 0, 1), new Date(2000, 0, 1));
  messages = '';
  jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void (messages += `${args.join(' ')}\n`));
  jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  jest.spyOn(process, 'exit').mockImplementation((code?: string | number | null) => {
    throw new Error(`process.exit(${code})`);
  });
});

afterEach(() => {
  jest.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

/** A stand-in npm: `ci` answers `ci`, anything else succeeds; records each command. */
function npm(ci: RunResult) {
  const calls: string[][] = [];
  const runCommand: Run = (command, args) => {
    calls.push([command, ...args]);
    return args[0] === 'ci' ? ci : { ok: true, status: 0, stdout: '', stderr: '' };
  };
  return { calls, runCommand };
}

describe('ensurePackages, when npm ci refuses the lock file', () => {
  it('given a developer machine, then it falls back to npm install without writing package-lock.json or package.json', () => {
    const { calls, runCommand } = npm(REFUSED);
    ensurePackages(dir, {}, runCommand);
    expect(calls).toEqual([
      ['npm', 'ci', '--no-audit', '--no-fund'],
      ['npm', 'install', '--no-save', '--no-audit', '--no-fund'],
    ]);
    expect(messages).toContain('packages installed');
  });

  it('given package.json changed without the lock file (a dependency added, one given another range), then it warns that npm install --no-save installs what the lock file does not pin, and how to regenerate it', () => {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ dependencies: { a: '^2.0.0', b: '^1.0.0' }, devDependencies: { c: '1.0.0' } }));
    writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies: { a: '^1.0.0' }, devDependencies: { c: '1.0.0' } } } }));
    const { calls, runCommand } = npm(REFUSED);
    ensurePackages(dir, {}, runCommand);
    expect(calls[1]).toEqual(['npm', 'install', '--no-save', '--no-audit', '--no-fund']);
    expect(messages).toMatch(/warning: package\.json and package-lock\.json disagree on a, b: .*versions the lock file does not pin/);
    expect(messages).toContain('The lock file needs regenerating: run npm install and commit the package-lock.json it writes');
    expect(messages).not.toContain('optional packages for other platforms');
  });

  it('given package.json as the lock file recorded it (only other platforms’ packages missing), then it says so and warns of nothing', () => {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ dependencies: { a: '^1.0.0' }, optionalDependencies: { d: '2.0.0' } }));
    writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies: { a: '^1.0.0' }, optionalDependencies: { d: '2.0.0' } } } }));
    ensurePackages(dir, {}, npm(REFUSED).runCommand);
    expect(messages).toContain('optional packages for other platforms are missing here');
    expect(messages).not.toContain('warning');
  });

  it.each(['true', '1'])('given CI=%s, then it stops with what to do and runs no npm install', (ci) => {
    const { calls, runCommand } = npm(REFUSED);
    expect(() => ensurePackages(dir, { CI: ci }, runCommand)).toThrow('process.exit(1)');
    expect(calls).toEqual([['npm', 'ci', '--no-audit', '--no-fund']]);
    expect(messages).toContain('under CI the launcher does not fall back to npm install, which may rewrite the lock file');
    expect(messages).toContain('commit the package-lock.json');
  });

  it('given CI=false, then it is a developer machine', () => {
    const { calls, runCommand } = npm(REFUSED);
    ensurePackages(dir, { CI: 'false' }, runCommand);
    expect(calls[1]).toEqual(['npm', 'install', '--no-save', '--no-audit', '--no-fund']);
  });
});
