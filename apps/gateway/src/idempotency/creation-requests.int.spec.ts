import { randomUUID } from 'node:crypto';
import { IDEMPOTENCY_KEY_REUSED } from '@pp/contracts';
import { TestStack, testInfra, waitFor } from '@pp/testing';
import Redis from 'ioredis';
import type { Pool } from 'pg';
import type { IssuedApiKeyView, ProvisionedMerchantView } from '../identity/identity.views';
import type { PlatformAdminView } from '../identity/platform-admin.service';
import { MAX_TEAM_SIZE, TEAM_FULL } from '../team/team-change.policy';
import { type CallResult, GatewayClient } from '../testing/gateway-client';

/*
 * The gateway's own creations that show a secret once keep their Idempotency-Key in Postgres, in the creation's
 * transaction. Its Redis record is settled only after the commit: a gateway that dies in between, or a Redis that
 * loses the record, is reproduced here by deleting the namespace's idempotency records between a request and its
 * retry, so the retry reaches the handler again. It must make nothing a second time. Real gateway, Postgres, Redis.
 */
describe('creations that show a secret once, retried after their Idempotency-Key left Redis', () => {
  let stack: TestStack;
  let gateway: GatewayClient;
  let redis: Redis;
  let db: Pool;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway'], label: 'creationrequests' });
    gateway = new GatewayClient(stack);
    redis = new Redis(testInfra.redisUrl);
    db = await stack.sql();
  });
  afterAll(async () => {
    redis?.disconnect();
    await stack?.stop();
  });

  /** What a crash between the commit and the settle leaves: no Redis record of any Idempotency-Key of this stack. */
  async function forgetIdempotencyRecords(): Promise<void> {
    const names = redis.scanStream({ match: `${stack.namespace}:gateway:idem:*`, count: 1000 });
    let deleted = 0;
    for await (const batch of names as AsyncIterable<string[]>) if (batch.length > 0) deleted += await redis.del(...batch);
    expect(deleted).toBeGreaterThan(0);
  }

  const admin = <T>(path: string, idempotencyKey: string, body: unknown): Promise<CallResult<T>> =>
    gateway.call<T>(`/v1/admin${path}`, { token: gateway.adminToken, idempotencyKey, body });

  const count = async (sql: string, parameter: string): Promise<number> => (await db.query<{ n: number }>(sql, [parameter])).rows[0].n;
  /**
   * Sends a command twice while `hold` (a statement and its parameters) holds a lock in an open transaction, and lets go
   * once both wait on a lock (statements like `waitingLike`): what each made, or was refused with.
   */
  async function sentTogether<T>(hold: [string, unknown[]], waitingLike: string, send: () => Promise<T>): Promise<{ made: T[]; refused: Array<{ code: string; message: string }> }> {
    const holder = await db.connect();
    let done = false;
    try {
      await holder.query('BEGIN');
      await holder.query(...hold);
      const both = Promise.allSettled([send(), send()]);
      await waitFor('both commands waiting on the lock', async () => (await lockWaits(waitingLike)) === 2);
      await holder.query('COMMIT');
      done = true;
      const answers = await both;
      return {
        made: answers.flatMap((answer) => (answer.status === 'fulfilled' ? [answer.value] : [])),
        refused: answers.flatMap((answer) => (answer.status === 'rejected' ? [answer.reason as { code: string; message: string }] : [])),
      };
    } finally {
      // A wait that timed out leaves the lock held: the connection goes, so no later test waits on it.
      holder.release(!done);
    }
  }

  /** Statements of this stack's database waiting on a lock (other suites' databases share the server). */
  const lockWaits = (queryLike: string) =>
    count(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE $1`, queryLike);

  it('issues no second API key: the retry is refused 409 naming the key issued, another body under the key 400', async () => {
    const merchant = await gateway.createMerchant('Keyed');
    const keys = () => count(`SELECT count(*)::int AS n FROM gateway.api_keys WHERE merchant_id = $1`, merchant.merchant_id);
    const idempotencyKey = randomUUID();
    const path = `/merchants/${merchant.merchant_id}/keys`;
    const issued = await admin<IssuedApiKeyView>(path, idempotencyKey, { type: 'secret', livemode: true });
    expect(issued.status).toBe(201);
    const before = await keys();

    await forgetIdempotencyRecords();
    const retried = await admin<{ error: string }>(path, idempotencyKey, { livemode: true, type: 'secret' });

    expect(retried.status).toBe(409);
    expect(retried.body.error).toBe(`This Idempotency-Key already issued ${issued.body.id}; its answer, the only copy of the key, was lost: revoke ${issued.body.id} and issue another`);
    expect(await keys()).toBe(before);
    const otherBody = await admin<{ error: string }>(path, idempotencyKey, { type: 'publishable', livemode: true });
    expect({ status: otherBody.status, body: otherBody.body }).toEqual({ status: 400, body: { error: IDEMPOTENCY_KEY_REUSED } });
    const otherMerchant = await admin<{ error: string }>(`/merchants/${(await gateway.createMerchant('Other')).merchant_id}/keys`, idempotencyKey, { type: 'secret', livemode: true });
    expect({ status: otherMerchant.status, body: otherMerchant.body }).toEqual({ status: 400, body: { error: IDEMPOTENCY_KEY_REUSED } });
    expect(await keys()).toBe(before);
  });

  it('creates no second merchant: the retry is refused 409 naming the merchant, not "e-mail taken", another body under the key 400', async () => {
    const email = `${randomUUID()}@example.com`;
    const merchants = () => count(`SELECT count(*)::int AS n FROM gateway.merchants WHERE email = $1`, email);
    const idempotencyKey = randomUUID();
    const created = await admin<ProvisionedMerchantView>('/merchants', idempotencyKey, { name: 'Once', email });
    expect(created.status).toBe(201);

    await forgetIdempotencyRecords();
    const retried = await admin<{ error: string }>('/merchants', idempotencyKey, { name: 'Once', email });

    expect(retried.status).toBe(409);
    expect(retried.body.error).toMatch(new RegExp(`^This Idempotency-Key already created merchant ${created.body.merchant_id}; .* was lost: issue ${created.body.merchant_id} new keys`));
    const otherBody = await admin<{ error: string }>('/merchants', idempotencyKey, { name: 'Twice', email: `${randomUUID()}@example.com` });
    expect({ status: otherBody.status, body: otherBody.body }).toEqual({ status: 400, body: { error: IDEMPOTENCY_KEY_REUSED } });
    expect(await merchants()).toBe(1);
    expect(await count(`SELECT count(*)::int AS n FROM gateway.api_keys WHERE merchant_id = $1`, created.body.merchant_id)).toBe(4);
  });

  it('creates no second platform admin, whose generated password was in the lost answer', async () => {
    const email = `ops-${randomUUID()}@example.com`;
    const idempotencyKey = randomUUID();
    const created = await admin<PlatformAdminView>('/platform_admins', idempotencyKey, { email });
    expect(created.status).toBe(201);
    expect(created.body.password).toEqual(expect.any(String));

    await forgetIdempotencyRecords();
    const retried = await admin<{ error: string }>('/platform_admins', idempotencyKey, { email });

    expect(retried.status).toBe(409);
    expect(retried.body.error).toMatch(new RegExp(`^This Idempotency-Key already created platform admin ${created.body.id}; `));
    expect(await count(`SELECT count(*)::int AS n FROM gateway.platform_admins WHERE email = $1`, email)).toBe(1);
  });

  it('given two commands with one Idempotency-Key at once, over the bus where no Redis record stands in front, then one key is issued and the other is refused naming it', async () => {
    const merchant = await gateway.createMerchant('Raced');
    const bus = await stack.bus();
    const idempotency = { key: randomUUID(), fingerprint: 'f'.repeat(64) };
    const command = { merchant_id: merchant.merchant_id, livemode: false, type: 'secret' as const, idempotency };

    // The merchant's row held from here, both get past the record's check before either can commit.
    const { made: issued, refused } = await sentTogether(['SELECT 1 FROM gateway.merchants WHERE id = $1 FOR UPDATE', [merchant.merchant_id]], '%gateway.merchants%', () =>
      bus.request('identity.api-keys.create.v1', command),
    );
    expect(issued).toHaveLength(1);
    expect(refused).toEqual([expect.objectContaining({ code: 'CONFLICT', message: expect.stringContaining(`This Idempotency-Key already issued ${issued[0].id}`) })]);
    expect(await count(`SELECT count(*)::int AS n FROM gateway.api_keys WHERE merchant_id = $1 AND NOT livemode AND type = 'secret'`, merchant.merchant_id)).toBe(2);
  });

  it('given two additions of one team user with one Idempotency-Key at once, then one is added and the other is refused naming them, not "e-mail taken"', async () => {
    const merchant = await gateway.createMerchant('Raced Team');
    const bus = await stack.bus();
    const command = { merchant_id: merchant.merchant_id, email: `raced-${randomUUID().slice(0, 8)}@example.com`, role: 'viewer' as const, idempotency: { key: randomUUID(), fingerprint: 'f'.repeat(64) } };

    // Records held back from here (reads go on): both get past the record's check; the first then waits on the held
    // records, the second on the first's lock of the team (the team's size is checked under it).
    const { made: added, refused } = await sentTogether(['LOCK TABLE gateway.creation_requests IN SHARE ROW EXCLUSIVE MODE', []], '%gateway.%', () =>
      bus.request('identity.team.add.v1', command),
    );
    expect(added).toHaveLength(1);
    expect(refused).toEqual([expect.objectContaining({ code: 'CONFLICT', message: expect.stringContaining(`This Idempotency-Key already added dashboard user ${added[0].id}`) })]);
    expect(await count(`SELECT count(*)::int AS n FROM gateway.dashboard_users WHERE email = $1`, command.email)).toBe(1);
  });

  it('given a team one user short of its limit, when two users are added at once, then one is added and the other refused: the team is full', async () => {
    const merchant = await gateway.createMerchant('Nearly Full Team');
    const members = await count(`SELECT count(*)::int AS n FROM gateway.dashboard_users WHERE merchant_id = $1 AND removed_at IS NULL`, merchant.merchant_id);
    await db.query(
      `INSERT INTO gateway.dashboard_users (id, merchant_id, email, password_hash, role)
       SELECT 'user_full' || g || '_' || $2, $1, 'full' || g || '-' || $2 || '@example.com', 'not-a-hash', 'viewer' FROM generate_series(1, $3::int) AS g`,
      [merchant.merchant_id, randomUUID().slice(0, 8), MAX_TEAM_SIZE - 1 - members],
    );
    const bus = await stack.bus();
    const addOne = () =>
      bus.request('identity.team.add.v1', {
        merchant_id: merchant.merchant_id,
        email: `last-${randomUUID().slice(0, 8)}@example.com`,
        role: 'viewer' as const,
        idempotency: { key: randomUUID(), fingerprint: 'f'.repeat(64) },
      });

    // The merchant's row held: both additions wait on it, then take the team's lock in turn.
    const { made, refused } = await sentTogether([`SELECT 1 FROM gateway.merchants WHERE id = $1 FOR NO KEY UPDATE`, [merchant.merchant_id]], '%gateway.merchants%', addOne);
    expect(made).toHaveLength(1);
    expect(refused).toEqual([expect.objectContaining({ code: 'CONFLICT', message: TEAM_FULL })]);
    expect(await count(`SELECT count(*)::int AS n FROM gateway.dashboard_users WHERE merchant_id = $1 AND removed_at IS NULL`, merchant.merchant_id)).toBe(MAX_TEAM_SIZE);
  });

  it('keeps a record 24 hours, as Redis keeps its own: past them the key is new again', async () => {
    const merchant = await gateway.createMerchant('Retained');
    const idempotencyKey = randomUUID();
    const path = `/merchants/${merchant.merchant_id}/keys`;
    expect((await admin(path, idempotencyKey, { type: 'publishable', livemode: false })).status).toBe(201);
    await db.query(`UPDATE gateway.creation_requests SET created_at = created_at - interval '24 hours' WHERE idempotency_key = $1`, [idempotencyKey]);

    await forgetIdempotencyRecords();
    const later = await admin<IssuedApiKeyView>(path, idempotencyKey, { type: 'publishable', livemode: false });

    expect(later.status).toBe(201);
    expect(await count(`SELECT count(*)::int AS n FROM gateway.creation_requests WHERE idempotency_key = $1`, idempotencyKey)).toBe(1);
  });
});
