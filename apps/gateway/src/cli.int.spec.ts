import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, REPO_ROOT, type TestDatabase } from '@pp/testing';
import { Client } from 'pg';

const CLI = join(REPO_ROOT, 'dist', 'apps', 'gateway', 'src', 'cli.js');

describe('gateway CLI', () => {
  let database: TestDatabase;
  let dir: string;

  beforeAll(async () => {
    database = await createTestDatabase('cli');
    await database.migrate('gateway');
    dir = mkdtempSync(join(tmpdir(), 'pp-cli-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await database?.drop();
  });

  const cli = async (...args: string[]) => {
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: database.serviceUrl('gateway') },
    });
    return JSON.parse(stdout);
  };

  const count = async (table: string) => {
    const db = new Client({ connectionString: database.url });
    await db.connect();
    try {
      return Number((await db.query(`SELECT count(*) FROM gateway.${table}`)).rows[0].count);
    } finally {
      await db.end();
    }
  };

  it('merchant:create, as the gateway’s role, prints the admin route’s JSON', async () => {
    const created = await cli('merchant:create', '--name', 'CLI Shop', '--email', 'owner@cli.example', '--password', 'correct horse battery');
    expect(created).toEqual({
      merchant_id: expect.stringMatching(/^mer_/),
      keys: {
        live_secret: expect.stringMatching(/^pp_live_(?!test_)/),
        test_secret: expect.stringMatching(/^pp_live_test_/),
        live_publishable: expect.stringMatching(/^pp_pub_(?!test_)/),
        test_publishable: expect.stringMatching(/^pp_pub_test_/),
      },
      dashboard_user: { id: expect.stringMatching(/^usr_/), email: 'owner@cli.example', role: 'owner' },
    });
  });

  it('merchant:create refuses a bad e-mail address and exits non-zero', async () => {
    await expect(cli('merchant:create', '--name', 'x', '--email', 'nope')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('email must be an e-mail address'),
    });
  });

  it('demo:seed creates the demo merchant once and writes its keys and login to the file', async () => {
    const out = join(dir, 'nested', 'demo.json');
    const first = await cli('demo:seed', '--out', out);
    expect(first.dashboard_user).toMatchObject({ email: 'demo@example.com', password: expect.any(String) });
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(first);
    const merchants = await count('merchants');

    expect(await cli('demo:seed', '--out', out)).toEqual(first);
    expect(await count('merchants')).toBe(merchants);

    // The file is lost: the same demo merchant gets new keys and a new password.
    rmSync(out);
    const again = await cli('demo:seed', '--out', out);
    expect(again.merchant_id).toBe(first.merchant_id);
    expect(again.keys.live_secret).not.toBe(first.keys.live_secret);
    expect(existsSync(out)).toBe(true);
    expect(await count('merchants')).toBe(merchants);
  });

  it('demo:seed-platform-admin creates the demo platform admin once; a lost file gives it a new password', async () => {
    const out = join(dir, 'admin', 'platform-admin.json');
    const first = await cli('demo:seed-platform-admin', '--out', out);
    expect(first).toEqual({ id: expect.stringMatching(/^usr_/), email: 'ops@demo.example.com', password: expect.any(String) });
    expect(await cli('demo:seed-platform-admin', '--out', out)).toEqual(first);
    expect(await count('platform_admins')).toBe(1);

    rmSync(out);
    const again = await cli('demo:seed-platform-admin', '--out', out);
    expect(again).toEqual({ ...first, password: expect.not.stringMatching(`^${first.password}$`) });
    expect(await count('platform_admins')).toBe(1);
  });
});
