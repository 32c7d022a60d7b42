import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { AUDIT_NOT_RECORDED, PLATFORM_ADMIN_ROLE } from '@pp/contracts';
import { serviceRole } from '@pp/platform';
import { sampleSum, scrape, TestStack, waitFor } from '@pp/testing';
import type { Pool } from 'pg';
import type { ApiKeyView, IssuedApiKeyView, MerchantView, MerchantWithKeysView, ProvisionedMerchantView } from '../identity/identity.views';
import type { ResetDashboardUserView } from '../identity/dashboard-user-password.service';
import type { PlatformAdminView } from '../identity/platform-admin.service';
import { type CallOptions, GatewayClient } from '../testing/gateway-client';
import { ADMIN_TOKEN_ACTOR } from './admin-audit';

/*
 * What the operator changes with ADMIN_TOKEN is on the audit trail
 * (docs/ARCHITECTURE.md "Audit trail"), in gateway.audit_entries next to the
 * dashboard's entries: who (the token), the merchant, the action, a detail
 * that never holds a key or password, the request id and address. Only the
 * gateway runs: these routes need no other service.
 */
describe('audit trail of the admin API', () => {
  let stack: TestStack;
  let gateway: GatewayClient;
  let db: Pool;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway'], label: 'adminaudit' });
    gateway = new GatewayClient(stack);
    db = await stack.sql();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const admin = <T>(path: string, options: CallOptions = {}) => gateway.call<T>(`/v1/admin${path}`, { token: gateway.adminToken, ...options });
  /** Runs `action` while the gateway's role may not insert audit entries (every recording fails), and answers what it answered. */
  const withAuditUnrecordable = async <T>(action: () => Promise<T>): Promise<T> => {
    await db.query(`REVOKE INSERT ON gateway.audit_entries FROM ${serviceRole('gateway')}`);
    try {
      return await action();
    } finally {
      await db.query(`GRANT INSERT ON gateway.audit_entries TO ${serviceRole('gateway')}`);
    }
  };

  const entriesFor = async (targetId: string) =>
    (
      await db.query(
        `SELECT actor_id, actor_email, actor_role, merchant_id, livemode, action, target_id, outcome, detail, request_id, address
           FROM gateway.audit_entries WHERE target_id = $1 ORDER BY position`,
        [targetId],
      )
    ).rows;

  const byTheAdminToken = { actor_id: expect.stringMatching(/^admin-token:[0-9a-f]+$/), actor_email: ADMIN_TOKEN_ACTOR, actor_role: PLATFORM_ADMIN_ROLE, outcome: 'success' };

  async function createMerchant(etransferEmail: string): Promise<ProvisionedMerchantView> {
    const created = await admin<ProvisionedMerchantView>('/merchants', { body: { name: 'Audited', email: `${randomUUID()}@example.com`, etransfer_email: etransferEmail } });
    expect(created.status).toBe(201);
    return created.body;
  }

  it('records a merchant created, with its owner and deposit address, the request id and the address; never its keys or password', async () => {
    const requestId = randomUUID();
    const created = await admin<ProvisionedMerchantView>('/merchants', {
      body: { name: 'Audited', email: `${randomUUID()}@example.com`, etransfer_email: 'pay-created@shop.example' },
      headers: { 'x-request-id': requestId },
    });
    expect(created.status).toBe(201);
    const merchant = created.body;
    expect(await entriesFor(merchant.merchant_id)).toEqual([
      {
        ...byTheAdminToken,
        merchant_id: merchant.merchant_id,
        livemode: null,
        action: 'merchant.created',
        target_id: merchant.merchant_id,
        detail: `owner ${merchant.dashboard_user.email}; deposit address pay-created@shop.example`,
        request_id: requestId,
        address: expect.stringMatching(/\S/),
      },
    ]);
    const { rows } = await db.query('SELECT detail FROM gateway.audit_entries');
    for (const secret of [...Object.values(merchant.keys), merchant.dashboard_user.password!]) {
      expect(rows.filter((row) => row.detail?.includes(secret))).toEqual([]);
    }
  });

  it("records a deposit address change with the old and the new address, and which other fields changed", async () => {
    const merchant = await createMerchant('pay-old@shop.example');
    const updated = await admin<MerchantView>(`/merchants/${merchant.merchant_id}`, {
      method: 'PATCH',
      body: { etransfer_email: 'pay-new@shop.example', name: 'Renamed', frame_ancestors: [] },
    });
    expect(updated.status).toBe(200);
    const cleared = await admin<MerchantView>(`/merchants/${merchant.merchant_id}`, { method: 'PATCH', body: { etransfer_email: null } });
    expect(cleared.status).toBe(200);
    const entries = await entriesFor(merchant.merchant_id);
    expect(entries.map((entry) => entry.action)).toEqual(['merchant.created', 'merchant.updated', 'merchant.updated']);
    expect(entries[1]).toEqual({
      ...byTheAdminToken,
      merchant_id: merchant.merchant_id,
      livemode: null,
      action: 'merchant.updated',
      target_id: merchant.merchant_id,
      // frame_ancestors was sent but already empty: not a change.
      detail: 'deposit address pay-old@shop.example → pay-new@shop.example; name Renamed',
      request_id: updated.headers.get('x-request-id'),
      address: expect.stringMatching(/\S/),
    });
    expect(entries[2].detail).toBe('deposit address pay-new@shop.example → none');
  });

  it('records a key issued and revoked by its redacted form, never the key; an Idempotency-Key replay records nothing more', async () => {
    const merchant = await createMerchant(`pay-${randomUUID()}@shop.example`);
    const idempotencyKey = randomUUID();
    const issue = () => admin<IssuedApiKeyView>(`/merchants/${merchant.merchant_id}/keys`, { body: { type: 'secret', livemode: true }, idempotencyKey });
    const issued = await issue();
    expect(issued.status).toBe(201);
    const replay = await issue();
    expect(replay.headers.get('x-cache-lookup')).toBe('HIT');
    expect(replay.body.id).toBe(issued.body.id);
    const revoked = await admin<ApiKeyView>(`/keys/${issued.body.id}`, { method: 'DELETE' });
    expect(revoked.status).toBe(200);

    const keyFacts = {
      merchant_id: merchant.merchant_id,
      livemode: true,
      target_id: issued.body.id,
      detail: `secret ${issued.body.redacted}; scopes: checkout.write, payments.read, events.read, webhooks.write, refunds.write; rate_limit_per_second: mode default; expires_at: never`,
    };
    const entries = await entriesFor(issued.body.id);
    expect(entries).toEqual([
      { ...byTheAdminToken, ...keyFacts, action: 'api_key.created', request_id: issued.headers.get('x-request-id'), address: expect.stringMatching(/\S/) },
      { ...byTheAdminToken, ...keyFacts, action: 'api_key.revoked', request_id: revoked.headers.get('x-request-id'), address: expect.stringMatching(/\S/) },
    ]);
    expect(JSON.stringify(entries)).not.toContain(issued.body.key);
  });

  it('records a restricted key issued with its scopes, rate limit and expiry, never the key', async () => {
    const merchant = await createMerchant(`pay-${randomUUID()}@shop.example`);
    const issued = await admin<IssuedApiKeyView>(`/merchants/${merchant.merchant_id}/keys`, {
      body: { type: 'restricted', livemode: true, scopes: ['payments.read', 'refunds.write'], rate_limit_per_second: 7, expires_at: '2030-06-01T12:00:00Z' },
    });
    expect(issued.status).toBe(201);
    const entries = await entriesFor(issued.body.id);
    expect(entries).toEqual([
      expect.objectContaining({
        ...byTheAdminToken,
        action: 'api_key.created',
        detail: `restricted ${issued.body.redacted}; scopes: payments.read, refunds.write; rate_limit_per_second: 7; expires_at: 2030-06-01T12:00:00.000Z`,
      }),
    ]);
    expect(JSON.stringify(entries)).not.toContain(issued.body.key);
  });

  it('names each replaced deposit address once when two changes race: the entries chain from the old address through the first change to the last', async () => {
    const merchant = await createMerchant('pay-race-0@shop.example');
    const path = `/merchants/${merchant.merchant_id}`;
    const addresses = ['pay-race-a@shop.example', 'pay-race-b@shop.example'];
    const answers = await Promise.all(addresses.map((address) => admin(path, { method: 'PATCH', body: { etransfer_email: address } })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const last = (await admin<MerchantView>(path)).body.etransfer_email!;
    const first = addresses.find((address) => address !== last);

    const details = (await entriesFor(merchant.merchant_id)).filter((entry) => entry.action === 'merchant.updated').map((entry) => entry.detail as string);
    expect(details.sort()).toEqual([`deposit address pay-race-0@shop.example → ${first}`, `deposit address ${first} → ${last}`].sort());
  });

  it('records a platform admin created, without the generated password', async () => {
    const created = await admin<PlatformAdminView>('/platform_admins', { body: { email: `${randomUUID()}@ops.example` } });
    expect(created.status).toBe(201);
    expect(await entriesFor(created.body.id)).toEqual([
      expect.objectContaining({ ...byTheAdminToken, merchant_id: null, action: 'platform_admin.created', detail: `${created.body.email} (${PLATFORM_ADMIN_ROLE})` }),
    ]);
  });

  it('records a platform admin’s password reset (whether generated, never the password) and removal; neither an unknown admin’s', async () => {
    const created = await admin<PlatformAdminView>('/platform_admins', { body: { email: `${randomUUID()}@ops.example` } });
    const reset = await admin<PlatformAdminView>(`/platform_admins/${created.body.id}/password`, { body: {} });
    expect(reset.status).toBe(200);
    const chosen = await admin<PlatformAdminView>(`/platform_admins/${created.body.id}/password`, { body: { password: 'a chosen passphrase' } });
    expect(chosen.body).toEqual({ id: created.body.id, email: created.body.email });
    expect((await admin(`/platform_admins/${created.body.id}`, { method: 'DELETE' })).status).toBe(200);
    for (const path of [`/platform_admins/${created.body.id}`, '/platform_admins/usr_nobody', '/platform_admins/not-an-id']) {
      expect((await admin<{ error: string }>(path, { method: 'DELETE' })).body).toEqual({ error: 'Platform admin not found' });
    }

    expect((await entriesFor(created.body.id)).map(({ action, detail }) => ({ action, detail }))).toEqual([
      { action: 'platform_admin.created', detail: `${created.body.email} (${PLATFORM_ADMIN_ROLE})` },
      { action: 'platform_admin.password_reset', detail: `${created.body.email} (generated)` },
      { action: 'platform_admin.password_reset', detail: created.body.email },
      { action: 'platform_admin.removed', detail: created.body.email },
    ]);
    const { rows } = await db.query('SELECT detail FROM gateway.audit_entries');
    expect(rows.filter((row) => row.detail?.includes(reset.body.password!) || row.detail?.includes('a chosen passphrase'))).toEqual([]);
  });

  it('sets a merchant owner’s password without the old one (a locked-out owner), ending the old one, on the trail without the password; another merchant’s user is not found', async () => {
    const merchant = await createMerchant('pay-locked-out@shop.example');
    const other = await createMerchant('pay-other-owner@shop.example');
    const owner = merchant.dashboard_user;
    const bus = await stack.bus();
    const signIn = (password: string) => bus.request('identity.dashboard-login.v1', { email: owner.email, password }).then((principal) => principal.id, (error: { message: string }) => error.message);
    expect(await signIn(owner.password!)).toBe(owner.id);
    // The operator finds the owner among the merchant's users.
    expect((await admin<MerchantWithKeysView>(`/merchants/${merchant.merchant_id}`)).body.users).toEqual([{ id: owner.id, email: owner.email, role: 'owner' }]);

    const reset = await admin<ResetDashboardUserView>(`/merchants/${merchant.merchant_id}/users/${owner.id}/password`, { body: {} });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ id: owner.id, merchant_id: merchant.merchant_id, email: owner.email, role: 'owner', password: expect.stringMatching(/\S{16,}/) });
    expect(await signIn(reset.body.password!)).toBe(owner.id);
    expect(await signIn(owner.password!)).toBe('Invalid email or password');
    const chosen = await admin<ResetDashboardUserView>(`/merchants/${merchant.merchant_id}/users/${owner.id}/password`, { body: { password: 'a chosen passphrase' } });
    expect(chosen.body).toEqual({ id: owner.id, merchant_id: merchant.merchant_id, email: owner.email, role: 'owner' });
    expect(await signIn('a chosen passphrase')).toBe(owner.id);

    for (const path of [`/merchants/${other.merchant_id}/users/${owner.id}/password`, `/merchants/${merchant.merchant_id}/users/usr_nobody/password`, `/merchants/${merchant.merchant_id}/users/not-an-id/password`]) {
      expect(await admin<{ error: string }>(path, { body: {} })).toMatchObject({ status: 404, body: { error: 'Dashboard user not found' } });
    }
    expect((await admin('/merchants/mer_nobody/users/usr_nobody/password', { body: { password: 'short' } })).status).toBe(400);

    expect((await entriesFor(owner.id)).map(({ action, detail, merchant_id }) => ({ action, detail, merchant_id }))).toEqual([
      { action: 'team.password_reset', detail: `${owner.email} (owner) (generated)`, merchant_id: merchant.merchant_id },
      { action: 'team.password_reset', detail: `${owner.email} (owner)`, merchant_id: merchant.merchant_id },
    ]);
    const { rows } = await db.query('SELECT detail FROM gateway.audit_entries');
    expect(rows.filter((row) => row.detail?.includes(reset.body.password!) || row.detail?.includes('a chosen passphrase'))).toEqual([]);
  });

  it('answers 503 when the entry cannot be recorded, though the change is made, logs the whole entry (as the dashboard does) and counts it', async () => {
    const merchant = await createMerchant('pay-before@shop.example');
    const unrecorded = async () => sampleSum(await scrape(stack.metricsUrl('gateway')), 'pp_audit_entries_unrecorded_total');
    const unrecordedBefore = await unrecorded();
    const updated = await withAuditUnrecordable(() => admin(`/merchants/${merchant.merchant_id}`, { method: 'PATCH', body: { etransfer_email: 'pay-unaudited@shop.example' } }));
    expect({ status: updated.status, body: updated.body }).toEqual({ status: 503, body: { error: AUDIT_NOT_RECORDED } });
    expect((await admin<MerchantView>(`/merchants/${merchant.merchant_id}`)).body.etransfer_email).toBe('pay-unaudited@shop.example');
    expect((await entriesFor(merchant.merchant_id)).map((entry) => entry.action)).toEqual(['merchant.created']);
    expect(await unrecorded()).toBe(unrecordedBefore + 1);
    const logged = () =>
      readFileSync(stack.process('gateway').logFile, 'utf8')
        .split('\n')
        .filter((line) => line.includes('audit entry not recorded'))
        .map((line) => JSON.parse(line) as { level: string; audit_entry: Record<string, unknown> });
    const [line] = await waitFor('the unrecorded entry in the error log', () => (logged().length ? logged() : undefined));
    expect(line).toMatchObject({
      level: 'error',
      audit_entry: { action: 'merchant.updated', merchant_id: merchant.merchant_id, detail: 'deposit address pay-before@shop.example → pay-unaudited@shop.example' },
    });
  });

  it('frees the Idempotency-Key of a creation made but not recorded: a retry is refused 409 naming the key it made, never minting a second', async () => {
    const merchant = await createMerchant(`pay-${randomUUID()}@shop.example`);
    const keysOf = async () => Number((await db.query(`SELECT count(*) AS n FROM gateway.api_keys WHERE merchant_id = $1`, [merchant.merchant_id])).rows[0].n);
    const before = await keysOf();
    const idempotencyKey = randomUUID();
    const issue = () => admin(`/merchants/${merchant.merchant_id}/keys`, { idempotencyKey, body: { type: 'restricted', livemode: true, scopes: ['payments.read'] } });
    const first = await withAuditUnrecordable(issue);
    expect({ status: first.status, body: first.body }).toEqual({ status: 503, body: { error: AUDIT_NOT_RECORDED } });
    const retried = await issue();
    const [{ id: issued }] = (await db.query(`SELECT id FROM gateway.api_keys WHERE merchant_id = $1 AND type = 'restricted'`, [merchant.merchant_id])).rows;
    expect({ status: retried.status, body: retried.body }).toEqual({
      status: 409,
      body: { error: `This Idempotency-Key already issued ${issued}; its answer, the only copy of the key, was lost: revoke ${issued} and issue another` },
    });
    expect(await keysOf()).toBe(before + 1);
  });

  it('holds the Idempotency-Key of a password reset made but not recorded: nothing else stops a retry from setting another password, so it replays the 503', async () => {
    const created = await admin<PlatformAdminView>('/platform_admins', { body: { email: `${randomUUID()}@ops.example` } });
    const hashOf = async () => (await db.query(`SELECT password_hash FROM gateway.platform_admins WHERE id = $1`, [created.body.id])).rows[0].password_hash as string;
    const idempotencyKey = randomUUID();
    const reset = () => admin(`/platform_admins/${created.body.id}/password`, { idempotencyKey, body: {} });
    const first = await withAuditUnrecordable(reset);
    expect({ status: first.status, body: first.body }).toEqual({ status: 503, body: { error: AUDIT_NOT_RECORDED } });
    const hashAfterFirst = await hashOf();
    const retried = await reset();
    expect({ status: retried.status, body: retried.body, hit: retried.headers.get('x-cache-lookup') }).toEqual({ status: 503, body: { error: AUDIT_NOT_RECORDED }, hit: 'HIT' });
    expect(await hashOf()).toBe(hashAfterFirst);
  });
});
