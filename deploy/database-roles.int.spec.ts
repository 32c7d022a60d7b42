import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DATABASE_SERVICES, type DatabaseService, OWNER_ROLE, serviceRole } from '@pp/platform';
import { createTestDatabase, REPO_ROOT, ServiceProcess, TestStack, testPool } from '@pp/testing';
import type { Pool } from 'pg';
import { GatewayClient } from '../apps/gateway/src/testing/gateway-client';

/*
 * The database as an attacker who has taken over a service sees it (issue 13,
 * section 3): each service logs in as its own role, which is no superuser,
 * owns nothing and reaches only its own schema; the ledger's role can add
 * events but never change, remove or unguard them.
 */

/** One table of each schema, to probe reads from the other services' roles. */
const TABLE_OF: Record<DatabaseService, string> = {
  gateway: 'gateway.api_keys',
  ledger: 'ledger.events',
  ingest: 'ingest.emails',
  webhooks: 'webhooks.endpoints',
};

describe('database roles of a running stack', () => {
  let stack: TestStack;
  let db: Pool;
  const pools: Pool[] = [];

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway', 'sessions', 'ledger', 'ingest', 'webhooks'], label: 'roles' });
    const gateway = new GatewayClient(stack);
    const merchant = await gateway.createMerchant('Roles');
    const session = await gateway.call('/v1/checkout/sessions', {
      token: merchant.keys.test_secret,
      body: { amount: 2500, currency: 'cad', reference: 'order-roles', success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/cancel' },
    });
    expect(session.status).toBe(201);
    db = await stack.sql();
  });
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await stack?.stop();
  });

  /** Queries as a service's own role. */
  const as = async (service: DatabaseService): Promise<Pool> => {
    const pool = testPool(stack.database.serviceUrl(service), 1);
    pools.push(pool);
    return pool;
  };
  const eventCount = async () => Number((await db.query('SELECT count(*) FROM ledger.events')).rows[0].count);

  it('runs every service that keeps data as its own role', async () => {
    const { rows } = await db.query<{ application_name: string; usename: string }>(
      `SELECT DISTINCT application_name, usename FROM pg_stat_activity WHERE datname = current_database() AND application_name = ANY($1)`,
      [[...DATABASE_SERVICES]],
    );
    expect(rows.map((row) => row.application_name).sort()).toEqual([...DATABASE_SERVICES].sort());
    for (const row of rows) expect(row.usename).toBe(serviceRole(row.application_name as DatabaseService));
  });

  it('gives no service role superuser powers, ownership or membership of the owner; the owner owns every table and is no superuser', async () => {
    const roles = [OWNER_ROLE, ...DATABASE_SERVICES.map(serviceRole)];
    const { rows } = await db.query('SELECT rolname, rolsuper, rolcreaterole, rolcreatedb, rolbypassrls, rolreplication FROM pg_roles WHERE rolname = ANY($1) ORDER BY rolname', [roles]);
    expect(rows).toHaveLength(roles.length);
    for (const role of rows) expect(role).toEqual({ rolname: role.rolname, rolsuper: false, rolcreaterole: false, rolcreatedb: false, rolbypassrls: false, rolreplication: false });

    const { rows: owners } = await db.query(`SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = ANY($1)`, [[...DATABASE_SERVICES]]);
    expect(owners).toEqual([{ tableowner: OWNER_ROLE }]);
    const { rows: memberships } = await db.query(
      `SELECT m.rolname FROM pg_auth_members a JOIN pg_roles m ON m.oid = a.member JOIN pg_roles r ON r.oid = a.roleid WHERE r.rolname = $1`,
      [OWNER_ROLE],
    );
    expect(memberships).toEqual([]);
  });

  it('lets the ledger role add and read events but never update, delete or truncate them', async () => {
    const ledger = await as('ledger');
    const before = await eventCount();
    expect(before).toBeGreaterThan(0);
    expect(Number((await ledger.query('SELECT count(*) FROM ledger.events')).rows[0].count)).toBe(before);
    await expect(ledger.query(`UPDATE ledger.events SET data = '{}'::jsonb`)).rejects.toThrow('permission denied for table events');
    await expect(ledger.query('DELETE FROM ledger.events')).rejects.toThrow('permission denied for table events');
    await expect(ledger.query('TRUNCATE ledger.events')).rejects.toThrow('permission denied for table events');
    await expect(ledger.query('DELETE FROM ledger.idempotency_keys')).rejects.toThrow('permission denied for table idempotency_keys');
    expect(await eventCount()).toBe(before);
  });

  it('does not let the ledger role switch off the append-only triggers or take the owner’s powers', async () => {
    const ledger = await as('ledger');
    await expect(ledger.query('SET session_replication_role = replica')).rejects.toThrow(/permission denied to set parameter "session_replication_role"/);
    await expect(ledger.query('ALTER TABLE ledger.events DISABLE TRIGGER ALL')).rejects.toThrow('must be owner of table events');
    await expect(ledger.query('DROP TRIGGER events_insert_only ON ledger.events')).rejects.toThrow(/must be owner of (table|relation) events/);
    await expect(ledger.query(`SET ROLE ${OWNER_ROLE}`)).rejects.toThrow(`permission denied to set role "${OWNER_ROLE}"`);
    await expect(ledger.query('CREATE TABLE ledger.shadow (id int)')).rejects.toThrow('permission denied for schema ledger');
    await expect(ledger.query('CREATE SCHEMA shadow')).rejects.toThrow(/permission denied for database/);
    await expect(ledger.query('ALTER ROLE CURRENT_USER SUPERUSER')).rejects.toThrow(/permission denied|must be superuser/);
    const { rows } = await db.query(`SELECT tgname, tgenabled FROM pg_trigger WHERE tgrelid = 'ledger.events'::regclass ORDER BY tgname`);
    expect(rows).toEqual([
      { tgname: 'events_insert_only', tgenabled: 'O' },
      { tgname: 'events_no_truncate', tgenabled: 'O' },
    ]);
  });

  it.each(DATABASE_SERVICES)('keeps the %s role out of every other service’s schema', async (service) => {
    const client = await as(service);
    for (const other of DATABASE_SERVICES.filter((s) => s !== service)) {
      const schema = TABLE_OF[other].split('.')[0];
      await expect(client.query(`SELECT 1 FROM ${TABLE_OF[other]} LIMIT 1`)).rejects.toThrow(`permission denied for schema ${schema}`);
    }
    await expect(client.query(`SELECT 1 FROM ${TABLE_OF[service]} LIMIT 1`)).resolves.toBeDefined();
  });

  /*
   * Advisory locks are shared by every session of a database: a service that
   * could take them could hold the ledger's publisher lock, a stream's append
   * lock or the migrations' lock, and stall them.
   */
  const ADVISORY_LOCK_CALLS = [
    { call: 'SELECT pg_try_advisory_lock(hashtext($1))', key: 'pp:ledger:jetstream-publisher' },
    { call: 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', key: 'stream-of-the-roles-spec' },
  ];

  it.each(DATABASE_SERVICES.filter((service) => service !== 'ledger'))('refuses the %s role the advisory locks the ledger and the migrations wait on', async (service) => {
    const client = await as(service);
    for (const { call, key } of ADVISORY_LOCK_CALLS) {
      await expect(client.query(call, [key])).rejects.toMatchObject({ code: '42501', message: expect.stringMatching(/permission denied for function pg_(try_)?advisory/) });
    }
  });

  it('lets the ledger and the owner role take advisory locks, and no other role call any advisory-lock function', async () => {
    const owner = testPool(stack.database.ownerUrl, 1);
    pools.push(owner);
    for (const client of [await as('ledger'), owner]) {
      for (const { call } of ADVISORY_LOCK_CALLS) await expect(client.query(call, ['lock-of-the-roles-spec'])).resolves.toBeDefined();
      await client.query('SELECT pg_advisory_unlock_all()');
    }
    const { rows } = await db.query<{ routine: string; roles: string[] }>(
      `SELECT p.oid::regprocedure::text AS routine,
              array(SELECT r.rolname FROM pg_roles r WHERE r.rolname = ANY($1) AND has_function_privilege(r.oid, p.oid, 'EXECUTE') ORDER BY r.rolname)::text[] AS roles
         FROM pg_proc p WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.proname LIKE 'pg%advisory%'`,
      [[OWNER_ROLE, ...DATABASE_SERVICES.map(serviceRole)]],
    );
    expect(rows.map((row) => row.routine)).toEqual(expect.arrayContaining(['pg_advisory_unlock_all()', 'pg_try_advisory_lock(bigint)', 'pg_advisory_xact_lock(bigint)']));
    for (const row of rows) expect(row).toEqual({ routine: row.routine, roles: [serviceRole('ledger'), OWNER_ROLE] });
  });

  it('refuses to migrate a schema holding a table its role has no grant for', async () => {
    const owner = testPool(stack.database.ownerUrl, 1);
    pools.push(owner);
    await owner.query('CREATE TABLE ledger.unlisted (id int)');
    try {
      const migrate = promisify(execFile)(process.execPath, [join(REPO_ROOT, 'dist', 'apps', 'ledger', 'src', 'migrate.js')], {
        env: { PATH: process.env.PATH ?? '', MIGRATION_DATABASE_URL: stack.database.ownerUrl },
      });
      await expect(migrate).rejects.toMatchObject({ stderr: expect.stringContaining('ledger.unlisted has no entry in the grants of pp_ledger') });
    } finally {
      await owner.query('DROP TABLE ledger.unlisted');
    }
  });

  it('refuses to migrate as a superuser', async () => {
    const migrate = promisify(execFile)(process.execPath, [join(REPO_ROOT, 'dist', 'apps', 'ledger', 'src', 'migrate.js')], {
      env: { PATH: process.env.PATH ?? '', MIGRATION_DATABASE_URL: stack.database.url },
    });
    await expect(migrate).rejects.toMatchObject({ stderr: expect.stringContaining('a superuser; migrate as the owner role') });
  });

  it('refuses to start a service that logs in as a superuser or as the owner', async () => {
    for (const url of [stack.database.url, stack.database.ownerUrl]) {
      const ledger = new ServiceProcess('ledger', { ...stack.env, DATABASE_URL: url }, join(REPO_ROOT, 'tmp', 'test-logs', stack.namespace, 'refused'));
      await expect(ledger.start()).rejects.toThrow(/DATABASE_URL logs in as \w+, which (is a superuser|owns tables of schema ledger); the ledger service must connect as its own role pp_ledger/);
    }
  });
});

describe('a service on a database the owner has not migrated', () => {
  it('stops at boot and says to run its migrate entry point', async () => {
    const database = await createTestDatabase('unmigrated');
    try {
      const env = { NATS_URL: process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222', DATABASE_URL: database.serviceUrl('ingest') };
      const ingest = new ServiceProcess('ingest', env, join(REPO_ROOT, 'tmp', 'test-logs', database.name));
      await expect(ingest.start()).rejects.toThrow(/schema ingest is not at its latest migration \(pending: EmailEvidence1767300000000, Quarantine1767400000000(, \w+)*\); run node dist\/apps\/ingest\/src\/migrate.js/);
    } finally {
      await database.drop();
    }
  });
});
