import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AUDIT_NOT_RECORDED } from '@pp/contracts';
import { createTestDatabase, REPO_ROOT, type TestDatabase } from '@pp/testing';
import { Client } from 'pg';
import { verifyPassword } from './identity/password';

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

  /** The CLI's JSON, or a rejection with its exit code, stdout and stderr; `input` is its stdin, `env` added to its environment. */
  const cliWith = async (options: { env?: Record<string, string>; input?: string }, ...args: string[]) => {
    const running = promisify(execFile)(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: database.serviceUrl('gateway'), ...options.env },
    });
    running.child.stdin?.end(options.input ?? '');
    const { stdout } = await running;
    return JSON.parse(stdout);
  };
  const cli = (...args: string[]) => cliWith({}, ...args);

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
  const passwordHashOf = async (table: 'platform_admins' | 'dashboard_users', email: string) =>
    (await asOwner<{ password_hash: string }>(`SELECT password_hash FROM gateway.${table} WHERE email = $1`, [email]))[0].password_hash;
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
  describe('platform-admin:create and :reset-password take what the admin route takes', () => {
    it.each([
      ['ADMIN_TOKEN', 'the admin token’s actor name'],
      ['gateway CLI', 'the CLI’s actor name'],
      ['cli:root', 'a CLI actor id'],
      ['cli:root@host.example', 'a CLI actor id with a domain'],
      ['not-an-address', 'no address at all'],
      ['ops\u202e@cli.example', 'invisible formatting'],
    ])('platform-admin:create refuses the e-mail %p (%s), creating nothing', async (email) => {
      const admins = await count('platform_admins');
      await expect(cli('platform-admin:create', '--email', email)).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/gateway cli: email must/) });
      expect(await count('platform_admins')).toBe(admins);
    });

    it('refuses a password shorter than 12 characters, creating or changing nothing', async () => {
      const admins = await count('platform_admins');
      await expect(cli('platform-admin:create', '--email', 'short@cli.example', '--password', 'short')).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining('password must be 12 to 256 characters'),
      });
      expect(await count('platform_admins')).toBe(admins);

      await cli('platform-admin:create', '--email', 'keeps@cli.example');
      const before = await passwordHashOf('platform_admins', 'keeps@cli.example');
      for (const password of ['short', '']) {
        await expect(cli('platform-admin:reset-password', '--email', 'keeps@cli.example', '--password', password)).rejects.toMatchObject({
          code: 1,
          stderr: expect.stringContaining('password must be 12 to 256 characters'),
        });
      }
      await expect(cli('platform-admin:reset-password', '--email', 'keeps@cli.example', '--password', 'x'.repeat(257))).rejects.toMatchObject({ code: 1 });
      expect(await passwordHashOf('platform_admins', 'keeps@cli.example')).toBe(before);
    });
  });

  describe('--password-stdin', () => {
    it('sets the password read from the first line of stdin, for a platform admin, its reset and a merchant’s owner', async () => {
      const created = await cliWith({ input: 'chosen on stdin 1\nignored\n' }, 'platform-admin:create', '--email', 'stdin@cli.example', '--password-stdin');
      expect(created).toEqual({ id: expect.stringMatching(/^usr_/), email: 'stdin@cli.example' });
      expect(await verifyPassword('chosen on stdin 1', await passwordHashOf('platform_admins', 'stdin@cli.example'))).toBe(true);

      const reset = await cliWith({ input: 'chosen on stdin 2\r\n' }, 'platform-admin:reset-password', '--email', 'stdin@cli.example', '--password-stdin');
      expect(reset).toEqual({ id: created.id, email: 'stdin@cli.example' });
      expect(await verifyPassword('chosen on stdin 2', await passwordHashOf('platform_admins', 'stdin@cli.example'))).toBe(true);

      const merchant = await cliWith({ input: 'owner chosen on stdin' }, 'merchant:create', '--name', 'Stdin Shop', '--email', 'owner@stdin.example', '--password-stdin');
      expect(merchant.dashboard_user).toEqual({ id: expect.stringMatching(/^usr_/), email: 'owner@stdin.example', role: 'owner' });
      expect(await verifyPassword('owner chosen on stdin', await passwordHashOf('dashboard_users', 'owner@stdin.example'))).toBe(true);
    });

    it('refuses an empty stdin, a short password and --password given too, creating nothing', async () => {
      const admins = await count('platform_admins');
      const create = (input: string, ...extra: string[]) => cliWith({ input }, 'platform-admin:create', '--email', 'stdin-refused@cli.example', '--password-stdin', ...extra);
      await expect(create('')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('--password-stdin: stdin held no password') });
      await expect(create('short\n')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('password must be 12 to 256 characters') });
      await expect(create('long enough password\n', '--password', 'long enough password')).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining('either with --password-stdin or with --password, not both'),
      });
      expect(await count('platform_admins')).toBe(admins);
    });
  });

  describe('the demo commands', () => {
    it.each(['production', 'staging'])('are refused under NODE_ENV=%s, before they change anything or write their file', async (nodeEnv) => {
      const [merchants, admins] = [await count('merchants'), await count('platform_admins')];
      for (const command of ['demo:seed', 'demo:seed-platform-admin']) {
        const out = join(dir, nodeEnv, `${command}.json`);
        await expect(cliWith({ env: { NODE_ENV: nodeEnv } }, command, '--out', out)).rejects.toMatchObject({
          code: 1,
          stderr: expect.stringContaining(`${command} is for development and tests only: refused under NODE_ENV=${nodeEnv}`),
        });
        expect(existsSync(out)).toBe(false);
      }
      expect([await count('merchants'), await count('platform_admins')]).toEqual([merchants, admins]);
    });

    it('run under NODE_ENV=development and test; what they change is recorded as the CLI’s, what they only read back is not, never a secret', async () => {
      // A database of its own: the demo merchant and admin do not exist yet.
      const fresh = await createTestDatabase('clidemo');
      const db = new Client({ connectionString: fresh.url });
      try {
        await fresh.migrate('gateway');
        await db.connect();
        const seed = (nodeEnv: string, command: string, out: string) =>
          cliWith({ env: { NODE_ENV: nodeEnv, DATABASE_URL: fresh.serviceUrl('gateway') } }, command, '--out', join(dir, 'audited', out));
        const entries = async () =>
          (await db.query(`SELECT actor_id, actor_email, actor_role, merchant_id, livemode, action, target_id, outcome, detail, request_id, address FROM gateway.audit_entries ORDER BY position`)).rows;
        const byTheCli = { actor_id: expect.stringMatching(/^cli:./), actor_email: 'gateway CLI', actor_role: 'platform_admin', outcome: 'success', request_id: expect.stringMatching(/^cli_/), address: expect.any(String) };

        const admin = await seed('development', 'demo:seed-platform-admin', 'admin.json');
        const demo = await seed('development', 'demo:seed', 'demo.json');
        expect(await seed('test', 'demo:seed-platform-admin', 'admin.json')).toEqual(admin);
        expect(await seed('test', 'demo:seed', 'demo.json')).toEqual(demo);
        expect(await entries()).toEqual([
          { ...byTheCli, merchant_id: null, livemode: null, action: 'platform_admin.created', target_id: admin.id, detail: 'ops@demo.example.com (platform_admin); by demo:seed-platform-admin' },
          { ...byTheCli, merchant_id: demo.merchant_id, livemode: null, action: 'merchant.created', target_id: demo.merchant_id, detail: 'owner demo@example.com; deposit address payments@demo.example.com; by demo:seed' },
        ]);

        // The files are lost: a new admin password, a new owner password and four new keys, each recorded.
        rmSync(join(dir, 'audited'), { recursive: true });
        const admin2 = await seed('test', 'demo:seed-platform-admin', 'admin.json');
        const demo2 = await seed('test', 'demo:seed', 'demo.json');
        const key = (name: string, type: string, livemode: boolean, scopes: string) => ({
          ...byTheCli,
          merchant_id: demo.merchant_id,
          livemode,
          action: 'api_key.created',
          target_id: expect.stringMatching(/^key_/),
          detail: expect.stringMatching(new RegExp(`^${type} \\S+…${demo2.keys[name].slice(-4)}; scopes: ${scopes}; rate_limit_per_second: mode default; expires_at: never; by demo:seed$`)),
        });
        const allScopes = 'checkout.write, payments.read, events.read, webhooks.write, refunds.write';
        expect((await entries()).slice(2)).toEqual([
          { ...byTheCli, merchant_id: null, livemode: null, action: 'platform_admin.password_reset', target_id: admin.id, detail: 'ops@demo.example.com (generated); by demo:seed-platform-admin' },
          { ...byTheCli, merchant_id: demo.merchant_id, livemode: null, action: 'auth.password_changed', target_id: demo.dashboard_user.id, detail: 'demo@example.com (generated); by demo:seed' },
          key('live_secret', 'secret', true, allScopes),
          key('test_secret', 'secret', false, allScopes),
          key('live_publishable', 'publishable', true, 'none'),
          key('test_publishable', 'publishable', false, 'none'),
        ]);
        const recorded = JSON.stringify(await entries());
        for (const secret of [admin.password, admin2.password, demo.dashboard_user.password, demo2.dashboard_user.password, ...Object.values<string>(demo.keys), ...Object.values<string>(demo2.keys)]) {
          expect(recorded).not.toContain(secret);
        }
      } finally {
        await db.end();
        await fresh.drop();
      }
    });

    it.each(['demo:seed', 'demo:seed-platform-admin'])('%s leaves its file readable by its owner alone, also one that was readable to others, and no temporary file', async (command) => {
      const folder = join(dir, 'modes', command);
      mkdirSync(folder, { recursive: true });
      const out = join(folder, 'seed.json');
      writeFileSync(out, 'left readable by an earlier write', { mode: 0o644 });
      chmodSync(out, 0o644);
      await cli(command, '--out', out);
      expect(statSync(out).mode & 0o777).toBe(0o600);
      expect(readdirSync(folder)).toEqual(['seed.json']);
    });
  });
});
