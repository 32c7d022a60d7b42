import { randomUUID } from 'node:crypto';
import type { AuditEntryView, ListPage, RefundView } from '@pp/contracts';
import { genuineTransfer, TestStack } from '@pp/testing';
import { DashboardBrowser, GatewayApi, type ProvisionedMerchant } from '../testing/dashboard-client';

/*
 * The dashboard's refund routes over real services (PRODUCT-RULES §3.3): the
 * platform admins' stage actions and the merchant's request and cancel. Their
 * free text is refused at the edge when Postgres could not store it or it
 * would read otherwise than it is; a repeated action is answered unchanged
 * and recorded as such; the bus's own fields never reach the browser.
 */
describe('dashboard refund routes', () => {
  let stack: TestStack;
  let gateway: GatewayApi;
  let shop: ProvisionedMerchant;
  let owner: DashboardBrowser;
  let ops: DashboardBrowser;
  let otherOps: DashboardBrowser;
  const admins: Record<string, string> = {};

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['gateway', 'sessions', 'ledger', 'refunds', 'dashboard'],
      label: 'dashboard-refunds',
      env: { DASHBOARD_SECURE_COOKIE: 'false', RATE_LIMIT_TEST_PER_SECOND: '5000', RATE_LIMIT_LIVE_PER_SECOND: '5000' },
    });
    gateway = new GatewayApi(stack);
    shop = await gateway.createMerchant('Refunds');
    owner = new DashboardBrowser(stack.url('dashboard'));
    expect((await owner.login(shop.dashboard_user.email, shop.dashboard_user.password)).status).toBe(200);
    [ops, otherOps] = await Promise.all(['ops', 'other-ops'].map(platformAdmin));
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function platformAdmin(name: string): Promise<DashboardBrowser> {
    const email = `${name}-${randomUUID().slice(0, 8)}@example.com`;
    const created = await gateway.call<{ id: string; password: string }>('/v1/admin/platform_admins', stack.env.ADMIN_TOKEN!, { email });
    expect(created.status).toBe(201);
    admins[name] = created.body.id;
    const browser = new DashboardBrowser(stack.url('dashboard'));
    expect((await browser.login(email, created.body.password)).status).toBe(200);
    return browser;
  }

  /** A live payment recorded from a transfer e-mail (as the ingest records it), and the answer to the owner's refund request. */
  async function requestLiveRefund(body: Record<string, unknown> = {}) {
    const session = await gateway.createSession(shop, {}, shop.keys.live_secret);
    const bus = await stack.bus(15_000);
    const payment = await bus.request('payments.record-transfer.v1', genuineTransfer(shop.merchant_id, session.memo));
    expect(payment.status).toBe('CONFIRMED');
    return owner.post<RefundView>(`/api/payments/${payment.id}/refund?mode=live`, body);
  }

  async function liveRefund(): Promise<RefundView> {
    const requested = await requestLiveRefund();
    expect(requested.status).toBe(201);
    return requested.body;
  }

  /**
   * The trail of `action` on one refund, newest first, as a platform admin reads it: its merchant's owner reads the
   * same entries, but with the operators shown as the platform (checked below).
   */
  async function trail(action: string, refundId: string) {
    const page = await ops.get<ListPage<AuditEntryView>>(`/api/admin/audit?merchant_id=${shop.merchant_id}&action=${action}&limit=100`);
    const asOwnerSees = await owner.get<ListPage<AuditEntryView>>(`/api/audit?action=${action}&limit=100`);
    const entries = page.body.data.filter((entry) => entry.target_id === refundId);
    const owners = asOwnerSees.body.data.filter((entry) => entry.target_id === refundId);
    expect(owners.map(({ id, detail }) => ({ id, detail }))).toEqual(entries.map(({ id, detail }) => ({ id, detail })));
    for (const [i, entry] of owners.entries()) expect(entry.actor_id).toBe(entries[i].actor_role === 'platform_admin' ? null : entries[i].actor_id);
    return entries.map(({ actor_id, detail }) => ({ actor_id, detail }));
  }

  it('given the owner’s refund request, then the answer is the refund alone, without the bus’s replayed', async () => {
    const requested = await requestLiveRefund({ reason: 'Two lines\n\tand a tab' });
    expect(requested.status).toBe(201);
    expect(requested.body).toMatchObject({ status: 'REQUESTED', reason: 'Two lines\n\tand a tab' });
    expect(requested.body).not.toHaveProperty('replayed');
  });

  it('given one admin’s action, when another admin repeats it: the refund is answered as it is, and the trail names the first as having done it; but the claim (mark sent) stays the first one’s', async () => {
    const refund = await liveRefund();
    const act = async (browser: DashboardBrowser, action: string, body?: unknown) => {
      const answered = await browser.post<RefundView>(`/api/admin/refunds/${refund.id}/${action}`, body);
      expect(answered.status).toBe(200);
      expect(answered.body).not.toHaveProperty('changed');
      return answered.body;
    };
    const approved = await act(ops, 'approve');
    expect(await act(otherOps, 'approve')).toEqual(approved);
    // Both had the APPROVED refund open: the second to mark it sent is told who holds it, so only one sends the money.
    const claimed = await act(ops, 'mark-sent');
    expect(claimed).not.toHaveProperty('sent_by');
    const second = await otherOps.post<RefundView>(`/api/admin/refunds/${refund.id}/mark-sent`);
    expect({ status: second.status, body: second.body }).toEqual({ status: 409, body: { error: `Refund is SENT; it is already claimed by ${admins.ops}` } });
    expect(await act(ops, 'mark-sent')).toEqual(claimed);
    const completed = await act(ops, 'complete', { outbound_reference: 'CA 9QmZ7', evidence_note: 'Deposit seen' });
    expect(await act(otherOps, 'complete', { outbound_reference: 'ca9qmz7', evidence_note: 'Deposit seen' })).toEqual(completed);

    expect(await trail('refund.approved', refund.id)).toEqual([
      { actor_id: admins['other-ops'], detail: 'already approved' },
      { actor_id: admins.ops, detail: null },
    ]);
    expect(await trail('refund.marked_sent', refund.id)).toEqual([
      { actor_id: admins.ops, detail: 'already sent' },
      { actor_id: admins.ops, detail: null },
    ]);
    expect(await trail('refund.completed', refund.id)).toEqual([
      { actor_id: admins['other-ops'], detail: 'already completed' },
      { actor_id: admins.ops, detail: 'CA 9QmZ7' },
    ]);
  });

  it.each([
    ['reject', 'rejected', [], { rejection_reason: 'Outside the window' }],
    ['fail', 'failed', ['approve', 'mark-sent'], { failure_reason: 'Account closed' }],
  ] as const)('given one admin’s %s, when another repeats it: recorded as already %s', async (action, stage, before, body) => {
    const refund = await liveRefund();
    for (const step of before) expect((await ops.post(`/api/admin/refunds/${refund.id}/${step}`)).status).toBe(200);
    const done = await ops.post<RefundView>(`/api/admin/refunds/${refund.id}/${action}`, body);
    const repeated = await otherOps.post<RefundView>(`/api/admin/refunds/${refund.id}/${action}`, body);
    expect([repeated.status, repeated.body]).toEqual([200, done.body]);
    expect(await trail(`refund.${stage}`, refund.id)).toEqual([
      { actor_id: admins['other-ops'], detail: `already ${stage}` },
      { actor_id: admins.ops, detail: Object.values(body)[0] },
    ]);
  });

  it('given a refund the owner cancelled, when cancelled again: answered as it is, without the bus’s changed, and recorded as already cancelled', async () => {
    const refund = await liveRefund();
    const cancelled = await owner.post<RefundView>(`/api/refunds/${refund.id}/cancel?mode=live`);
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED' });
    expect(cancelled.body).not.toHaveProperty('changed');
    const again = await owner.post<RefundView>(`/api/refunds/${refund.id}/cancel?mode=live`);
    expect([again.status, again.body]).toEqual([200, cancelled.body]);
    expect(await trail('refund.cancelled', refund.id)).toEqual([
      { actor_id: shop.dashboard_user.id, detail: 'already cancelled' },
      { actor_id: shop.dashboard_user.id, detail: null },
    ]);
  });

  describe('free text Postgres could not store, or that reads otherwise than it is', () => {
    // A NUL and half a surrogate pair never reach the field's rule: the JSON body parser refuses them first.
    const REFUSED = (field: string, text: string) => ({
      status: 400,
      body: {
        error: text.includes('\u0000')
          ? `Validation failed: body.${field} must not contain NUL characters`
          : text.includes('\ud83d')
            ? `Validation failed: body.${field} must be valid Unicode (unpaired surrogate)`
            : `Validation failed: ${field} must not contain control or invisible formatting characters`,
      },
    });
    const HOSTILE = ['NUL\u0000', 'bell\u0007', 'reversed \u202etxet', 'isolated \u2067txet', 'half \ud83d'];

    it.each(HOSTILE)('given a request reason %p: 400, and no refund', async (reason) => {
      const refused = await requestLiveRefund({ reason });
      expect({ status: refused.status, body: refused.body }).toEqual(REFUSED('reason', reason));
    });

    it('given an admin’s rejection, evidence or failure with one: 400, and the refund stays where it was', async () => {
      const refund = await liveRefund();
      for (const text of HOSTILE) {
        const rejected = await ops.post(`/api/admin/refunds/${refund.id}/reject`, { rejection_reason: text });
        expect({ status: rejected.status, body: rejected.body }).toEqual(REFUSED('rejection_reason', text));
      }
      await ops.post(`/api/admin/refunds/${refund.id}/approve`);
      await ops.post(`/api/admin/refunds/${refund.id}/mark-sent`);
      for (const text of HOSTILE) {
        const completed = await ops.post(`/api/admin/refunds/${refund.id}/complete`, { outbound_reference: 'CA 5XyZ9', evidence_note: text });
        expect({ status: completed.status, body: completed.body }).toEqual(REFUSED('evidence_note', text));
        const failed = await ops.post(`/api/admin/refunds/${refund.id}/fail`, { failure_reason: text });
        expect({ status: failed.status, body: failed.body }).toEqual(REFUSED('failure_reason', text));
      }
      const invisible = await ops.post(`/api/admin/refunds/${refund.id}/complete`, { outbound_reference: 'CA\u200b5XyZ9', evidence_note: 'Deposit seen' });
      expect(invisible.status).toBe(400);
      const queue = await ops.get<ListPage<RefundView>>('/api/admin/refunds?status=SENT&limit=50');
      expect(queue.body.data.find((listed) => listed.id === refund.id)).toMatchObject({ status: 'SENT', rejection_reason: null });
    });
  });
});
