import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * What `npm test` does before Jest, in a scratch checkout: the quiet build (tools/build/build.js, as the
 * launchers and Jest's global set-up run it) shows what failed, and the type-check step covers the
 * dashboard's web app, which tsconfig.json leaves out (test.js).
 */

/* eslint-disable @typescript-eslint/no-require-imports -- the launcher is plain CommonJS */
const { build } = require('../build/build') as { build: (options: { quiet?: boolean; root?: string }) => void };
type Checked = { ok: boolean; stdout: string; stderr: string; what: string };
const { typeCheck } = require('./test') as { typeCheck: (dir: string) => Promise<Checked>[] };
/* eslint-enable @typescript-eslint/no-require-imports */

const root = join(__dirname, '..', '..');
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'launcher-checks-'));
});

afterEach(() => {
  jest.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const write = (path: string, text: string) => {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), text);
};

describe('the quiet build', () => {
  it('given a syntax error, then it shows swc’s own message (file, line) before failing', () => {
    copyFileSync(join(root, '.swcrc.json'), join(dir, '.swcrc.json'));
    for (const folder of ['apps', 'libs', 'tools/bench', 'examples']) mkdirSync(join(dir, folder), { recursive: true });
    write('apps/broken/src/main.ts', 'export const x = ;\n');
    let shown = '';
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      shown += chunk.toString();
      return true;
    });

    expect(() => build({ quiet: true, root: dir })).toThrow(/^the build failed: swc .*exit code 1.*; its output is above$/);
    expect(shown).toContain('apps/broken/src/main.ts');
    expect(shown).toContain('Expression expected');
  }, 30_000);
});

describe('the type-check step', () => {
  it('given a type error in the dashboard’s web app only, then the step fails on it', async () => {
    write('tsconfig.json', JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] }, include: ['libs/**/*.ts'], exclude: ['apps/dashboard/web'] }));
    write('libs/fine.ts', 'export const n: number = 1;\n');
    write('apps/dashboard/web/tsconfig.json', JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] }, include: ['src/**/*.ts'] }));
    write('apps/dashboard/web/src/page.ts', "export const n: number = 'one';\n");

    const results = await Promise.all(typeCheck(dir));

    expect(results.filter((result) => result.ok).map((result) => result.what)).toEqual(['type errors']);
    const failed = results.filter((result) => !result.ok);
    expect(failed.map((result) => result.what)).toEqual(["type errors in the dashboard's web app (apps/dashboard/web)"]);
    expect(failed[0].stdout).toContain("src/page.ts(1,14): error TS2322: Type 'string' is not assignable to type 'number'.");
  }, 60_000);
});
