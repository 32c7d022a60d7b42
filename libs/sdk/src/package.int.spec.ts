import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';

/*
 * The SDK is published on its own: its build must compile without the
 * monorepo, and what it emits may require only Node's modules and its own
 * files (no runtime dependencies, nothing of ours).
 */

const SDK_ROOT = join(__dirname, '..');
const REPO_ROOT = join(SDK_ROOT, '..', '..');

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]));

describe('the published SDK package', () => {
  let outDir: string;

  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'pp-sdk-build-'));
    await promisify(execFile)(process.execPath, [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(SDK_ROOT, 'tsconfig.build.json'), '--outDir', outDir], { cwd: SDK_ROOT });
  }, 120_000);

  it('builds the entry points its package.json names', () => {
    const manifest = JSON.parse(readFileSync(join(SDK_ROOT, 'package.json'), 'utf8')) as { main: string; types: string; bin: Record<string, string>; dependencies: object };
    const emitted = new Set(filesUnder(outDir).map((file) => `dist/${relative(outDir, file)}`));
    expect(emitted).toContain(manifest.main);
    expect(emitted).toContain(manifest.types);
    for (const bin of Object.values(manifest.bin)) expect(emitted).toContain(bin);
    expect(readFileSync(join(outDir, relative('dist', manifest.bin['pp-checkout'])), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
    expect(manifest.dependencies).toEqual({});
  });

  it('requires only Node built-ins and its own files', () => {
    const required = filesUnder(outDir)
      .filter((file) => file.endsWith('.js'))
      .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1]));
    const outside = required.filter((name) => !name.startsWith('.') && !builtinModules.includes(name.replace(/^node:/, '')));
    expect(outside).toEqual([]);
    expect(required).toEqual(expect.arrayContaining(['node:crypto']));
  });

  it('loads in a plain Node process and verifies what it signs', async () => {
    const script = `const sdk = require(${JSON.stringify(outDir)});
      const { body, headers } = sdk.webhooks.signTestPayload({ id: 'evt_abcdefgh12', type: 'payment.confirmed', data: {} }, 'whsec_x');
      console.log(sdk.webhooks.verify(body, headers, 'whsec_x').id, typeof sdk.CheckoutClient);`;
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script]);
    expect(stdout.trim()).toBe('evt_abcdefgh12 function');
  });
});
