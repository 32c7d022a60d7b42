import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AUDIT_NOT_RECORDED } from '@pp/contracts';
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

  /** A statement as the database's owner (the CLI runs as the gateway's role). */
  const asOwner = async <T extends object>(sql: string, values: unknown[] = []): Promise<T[]> => {
    const db = new Client({ connectionString: database.url });
    await db.connect();
    try {
      return (await db.query(sql, values)).rows as T[];
    } finally {
      await db.end();
    }
  };
  const count = async (table: string) => Number((await asOwner<{ count: string }>(`SELECT count(*) FROM gateway.${table}`))[0].count);
  const auditOf = (targetId: string) =>
    asOwner(`SELECT actor_id, actor_email, actor_role, merchant_id, livemode, action, outcome, detail, request_id, address FROM gateway.audit_entries WHERE target_id = $1 ORDER BY position`, [targetId]);

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

  it('merchant:create and platform-admin:create are recorded in the audit trail as the CLI’s, with no secret', async () => {
    const merchant = await cli('merchant:create', '--name', 'Audited Shop', '--email', 'owner@audited.example', '--etransfer-email', 'pay@audited.example');
    const byTheCli = { actor_id: expect.stringMatching(/^cli:./), actor_email: 'gateway CLI', actor_role: 'platform_admin', outcome: 'success', request_id: expect.stringMatching(/^cli_/), address: expect.any(String) };
    expect(await auditOf(merchant.merchant_id)).toEqual([
      { ...byTheCli, merchant_id: merchant.merchant_id, livemode: null, action: 'merchant.created', detail: 'owner owner@audited.example; deposit address pay@audited.example' },
    ]);

    const admin = await cli('platform-admin:create', '--email', 'ops2@cli.example');
    const [entry] = await auditOf(admin.id);
    expect(entry).toEqual({ ...byTheCli, merchant_id: null, livemode: null, action: 'platform_admin.created', detail: 'ops2@cli.example (platform_admin)' });
    expect(JSON.stringify(entry)).not.toContain(admin.password);
  });

  it('platform-admin:reset-password and platform-admin:remove act on the admin named by e-mail, recorded as the CLI’s; an unknown e-mail exits non-zero', async () => {
    const admin = await cli('platform-admin:create', '--email', 'ops-leaving@cli.example');
    const reset = await cli('platform-admin:reset-password', '--email', 'OPS-LEAVING@cli.example');
    expect(reset).toEqual({ id: admin.id, email: 'ops-leaving@cli.example', password: expect.any(String) });
    expect(reset.password).not.toBe(admin.password);
    const removed = await cli('platform-admin:remove', '--email', 'ops-leaving@cli.example');
    expect(removed).toMatchObject({ id: admin.id, removed_at: expect.stringMatching(/Z$/) });
    expect(((await auditOf(admin.id)) as Array<{ action: string; actor_email: string }>).map(({ action, actor_email }) => [action, actor_email])).toEqual([
      ['platform_admin.created', 'gateway CLI'],
      ['platform_admin.password_reset', 'gateway CLI'],
      ['platform_admin.removed', 'gateway CLI'],
    ]);
    for (const command of ['platform-admin:remove', 'platform-admin:reset-password']) {
      await expect(cli(command, '--email', 'ops-leaving@cli.example')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('Platform admin not found') });
    }
  });

  it('an action whose audit entry cannot be stored still prints its one copy of the keys, says so and exits non-zero', async () => {
    await asOwner(`
      CREATE FUNCTION gateway.refuse_cli_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'audit refused for the test'; END $$`);
    await asOwner(`CREATE TRIGGER refuse_cli_audit BEFORE INSERT ON gateway.audit_entries FOR EACH ROW EXECUTE FUNCTION gateway.refuse_cli_audit()`);
    try {
      const failed = await cli('merchant:create', '--name', 'Unrecorded', '--email', 'owner@unrecorded.example').then(
        () => undefined,
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(failed?.code).toBe(1);
      const printed = JSON.parse(failed!.stdout);
      expect(printed.keys.live_secret).toMatch(/^pp_live_/);
      expect(failed!.stderr).toContain(AUDIT_NOT_RECORDED);
      const logged = failed!.stderr.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
      expect(logged).toContainEqual(expect.objectContaining({ level: 'error', msg: 'audit entry not recorded', audit_entry: expect.objectContaining({ action: 'merchant.created', target_id: printed.merchant_id }) }));
      expect(await auditOf(printed.merchant_id)).toEqual([]);
    } finally {
      await asOwner(`DROP TRIGGER refuse_cli_audit ON gateway.audit_entries`);
      await asOwner(`DROP FUNCTION gateway.refuse_cli_audit()`);
    }
  });

  it('refuses a platform admin with a merchant user’s e-mail and an owner with a platform admin’s (sign-in finds admins first, so one would lock the other out)', async () => {
    await cli('merchant:create', '--name', 'Shadowed', '--email', 'owner@shadow.example');
    await expect(cli('platform-admin:create', '--email', 'OWNER@shadow.example')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('A dashboard user with this email already exists'),
    });
    await cli('platform-admin:create', '--email', 'ops3@cli.example');
    await expect(cli('merchant:create', '--name', 'Shadowing', '--email', 'Ops3@cli.example')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('A platform admin with this email already exists'),
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
    const admins = await count('platform_admins');
    const first = await cli('demo:seed-platform-admin', '--out', out);
    expect(first).toEqual({ id: expect.stringMatching(/^usr_/), email: 'ops@demo.example.com', password: expect.any(String) });
    expect(await cli('demo:seed-platform-admin', '--out', out)).toEqual(first);
    expect(await count('platform_admins')).toBe(admins + 1);

    rmSync(out);
    const again = await cli('demo:seed-platform-admin', '--out', out);
    expect(again).toEqual({ ...first, password: expect.not.stringMatching(`^${first.password}$`) });
    expect(await count('platform_admins')).toBe(admins + 1);
  });
});
