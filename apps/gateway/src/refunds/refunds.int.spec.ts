import { randomUUID } from 'node:crypto';
import type { CheckoutSessionCreatedView, RefundView, SimulatePaymentReply, PaymentView } from '@pp/contracts';
import { BusClient } from '@pp/platform';
import { genuineTransfer, TestStack } from '@pp/testing';
import type { Pool } from 'pg';
import type { ProvisionedMerchantView } from '../identity/identity.views';
import { type CallResult, GatewayClient } from '../testing/gateway-client';

/*
 * Refunds end to end (PRODUCT-RULES §3.3, issue 8): gateway → refunds → sessions
 * (payment decision) → ledger, over HTTP wherever the route is HTTP. Test
 * payments come from the simulator, live ones from a recorded e-transfer,
 * as the ingest records them.
 */

const sessionBody = () => ({
  amount: 2500,
  currency: 'cad',
  reference: `order-${randomUUID()}`,
  success_url: 'https://shop.example/ok',
  cancel_url: 'https://shop.example/cancel',
  metadata: { cart: '42' },
});

/** A live completion's inputs; each refund gets its own outbound reference, as each bank transfer has its own. */
const newEvidence = () => ({ outbound_reference: `CA${randomUUID().slice(0, 8)}`, evidence_note: 'Bank shows the e-transfer deposited' });

describe('refunds over HTTP', () => {
  let stack: TestStack;
  let gateway: GatewayClient;
  let bus: BusClient;
  let db: Pool;
  let a: ProvisionedMerchantView;
  let b: ProvisionedMerchantView;

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['gateway', 'sessions', 'ledger', 'refunds'],
      label: 'refunds',
      env: { RATE_LIMIT_TEST_PER_SECOND: '5000', RATE_LIMIT_LIVE_PER_SECOND: '5000' },
    });
    gateway = new GatewayClient(stack);
    [a, b] = await Promise.all([gateway.createMerchant('A'), gateway.createMerchant('B')]);
    bus = await stack.bus(15_000);
    db = await stack.sql();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const admin = (path: string, body?: unknown) => gateway.call<RefundView>(`/v1/admin/refunds${path}`, { token: gateway.adminToken, ...(body === undefined ? { method: 'POST' } : { body }) });

  async function testPayment(merchant = a, outcome = 'confirmed'): Promise<PaymentView> {
    const session = await gateway.call<CheckoutSessionCreatedView>('/v1/checkout/sessions', { token: merchant.keys.test_secret, body: sessionBody() });
    const simulated = await gateway.call<SimulatePaymentReply>('/v1/sandbox/simulate-payment', { token: merchant.keys.test_secret, body: { sessionId: session.body.id, outcome } });
    expect(simulated.status).toBe(200);
    return simulated.body.transaction;
  }

  async function livePayment(merchant = a): Promise<PaymentView> {
    const session = await gateway.call<CheckoutSessionCreatedView>('/v1/checkout/sessions', { token: merchant.keys.live_secret, body: sessionBody() });
    expect(session.status).toBe(201);
    const payment = await bus.request('payments.record-transfer.v1', genuineTransfer(merchant.merchant_id, session.body.memo, { comment: session.body.memo }));
    expect(payment.status).toBe('CONFIRMED');
    return payment;
  }

  const requestRefund = (token: string, paymentId: string, extra: Record<string, unknown> = {}, idempotencyKey?: string) =>
    gateway.call<RefundView>('/v1/refunds', { token, body: { payment_id: paymentId, ...extra }, ...(idempotencyKey ? { idempotencyKey } : {}) });

  const paymentStatus = async (token: string, paymentId: string): Promise<string> => {
    const listed = await gateway.call<PaymentView[]>('/v1/payments?limit=50', { token });
    return listed.body.find((payment) => payment.id === paymentId)!.status;
  };

  const refundedEvents = async (token: string, paymentId: string) => {
    const listed = await gateway.call('/v1/events?type=payment.refunded&limit=50', { token });
    expect(listed.status).toBe(200);
    return (listed.body as Array<{ livemode: boolean; data: Record<string, unknown> }>).filter((event) => event.data.payment_id === paymentId);
  };

  const expectError = (result: CallResult, status: number, error: string) => expect({ status: result.status, body: result.body }).toEqual({ status, body: { error } });

  async function sentLiveRefund(): Promise<{ payment: PaymentView; refund: RefundView }> {
    const payment = await livePayment();
    const refund = (await requestRefund(a.keys.live_secret, payment.id)).body;
    expect((await admin(`/${refund.id}/approve`)).status).toBe(200);
    expect((await admin(`/${refund.id}/mark-sent`)).body.status).toBe('SENT');
    return { payment, refund };
  }

  it('test mode: one request completes the refund at once, the payment is REFUNDED with one payment.refunded (livemode false)', async () => {
    const payment = await testPayment();
    const key = randomUUID();
    const created = await requestRefund(a.keys.test_secret, payment.id, { reason: '  Duplicate order  ' }, key);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^rf_[a-z0-9]+$/),
      payment_id: payment.id,
      merchant_id: a.merchant_id,
      amount: 2500,
      status: 'COMPLETED',
      livemode: false,
      requested_by: expect.stringMatching(/^key_/),
      reason: 'Duplicate order',
      outbound_reference: null,
      evidence_note: null,
    });
    for (const stage of ['requested_at', 'approved_at', 'sent_at', 'completed_at'] as const) expect(created.body[stage]).toBe(created.body.created_at);
    expect((await gateway.call(`/v1/refunds/${created.body.id}`, { token: a.keys.test_secret })).body).toEqual(created.body);
    expect(await paymentStatus(a.keys.test_secret, payment.id)).toBe('REFUNDED');
    const events = await refundedEvents(a.keys.test_secret, payment.id);
    expect(events).toEqual([expect.objectContaining({ livemode: false, data: expect.objectContaining({ status: 'REFUNDED', amount: 2500, metadata: { cart: '42' } }) })]);

    const replay = await requestRefund(a.keys.test_secret, payment.id, { reason: '  Duplicate order  ' }, key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('x-cache-lookup')).toBe('HIT');
    expect(replay.body).toEqual(created.body);
    expectError(await requestRefund(a.keys.test_secret, payment.id), 409, 'Payment already refunded');
    expect(await refundedEvents(a.keys.test_secret, payment.id)).toHaveLength(1);
  });

  it('refuses a reason with control or invisible formatting characters; newlines and tabs are text', async () => {
    const payment = await testPayment();
    for (const reason of ['Bell\u0007', 'Escape\u001b[2J', 'Reversed \u202etxet', 'Isolated \u2067txet']) {
      expectError(await requestRefund(a.keys.test_secret, payment.id, { reason }), 400, 'Validation failed: reason must not contain control or invisible formatting characters');
    }
    expect((await requestRefund(a.keys.test_secret, payment.id, { reason: 'Two lines\n\tand a tab' })).body).toMatchObject({ reason: 'Two lines\n\tand a tab' });
  });

  it('live mode: an admin approves, marks sent and completes with evidence; the payment is REFUNDED with one payment.refunded', async () => {
    const EVIDENCE = newEvidence();
    const payment = await livePayment();
    const requested = await requestRefund(a.keys.live_secret, payment.id, { reason: 'Customer returned the item' });
    expect(requested.status).toBe(201);
    expect(requested.body).toMatchObject({ status: 'REQUESTED', livemode: true, amount: 2500, approved_at: null });
    const id = requested.body.id;

    const queue = await gateway.call<RefundView[]>('/v1/admin/refunds?status=REQUESTED&limit=50', { token: gateway.adminToken });
    expect(queue.body.map((refund) => refund.id)).toContain(id);
    expect(queue.body).toEqual(expect.arrayOf(expect.objectContaining({ status: 'REQUESTED' })));

    const approved = await admin(`/${id}/approve`);
    expect(approved.body).toMatchObject({ status: 'APPROVED', approved_at: expect.any(String) });
    // The same answer, without the bus's `changed` (true the first time, false now).
    const approvedAgain = await admin(`/${id}/approve`);
    expect([approvedAgain.status, approvedAgain.body]).toEqual([200, approved.body]);
    const sent = await admin(`/${id}/mark-sent`);
    expect(sent.body).toMatchObject({ status: 'SENT', sent_at: expect.any(String) });
    expectError(await admin(`/${id}/approve`), 409, 'Refund is SENT; it cannot be approved');
    expectError(await admin(`/${id}/complete`, { outbound_reference: 'CA1' }), 400, 'Validation failed: evidence_note is required');
    expectError(await admin(`/${id}/complete`, { outbound_reference: 'CA1', evidence_note: '   ' }), 400, 'Validation failed: evidence_note is required');
    expectError(await admin(`/${id}/complete`, { outbound_reference: ' ', evidence_note: 'ok' }), 400, 'Validation failed: outbound_reference is required');
    expect(await paymentStatus(a.keys.live_secret, payment.id)).toBe('CONFIRMED');

    const completed = await admin(`/${id}/complete`, { outbound_reference: ` ${EVIDENCE.outbound_reference} `, evidence_note: EVIDENCE.evidence_note });
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({ status: 'COMPLETED', ...EVIDENCE, completed_at: expect.any(String) });
    expect(await paymentStatus(a.keys.live_secret, payment.id)).toBe('REFUNDED');
    const completedAgain = await admin(`/${id}/complete`, EVIDENCE);
    expect([completedAgain.status, completedAgain.body]).toEqual([200, completed.body]);
    // One transfer's reference however it is spaced or cased: the retry answers the completed refund.
    const respaced = await admin(`/${id}/complete`, { ...EVIDENCE, outbound_reference: `${EVIDENCE.outbound_reference.slice(0, 4)} ${EVIDENCE.outbound_reference.slice(4).toUpperCase()}` });
    expect([respaced.status, respaced.body]).toEqual([200, completed.body]);
    expectError(await admin(`/${id}/complete`, { ...EVIDENCE, outbound_reference: 'OTHER' }), 409, 'Refund is COMPLETED with another outbound_reference');
    expect(await refundedEvents(a.keys.live_secret, payment.id)).toEqual([expect.objectContaining({ livemode: true })]);
    expect((await gateway.call(`/v1/refunds/${id}`, { token: a.keys.live_secret })).body).toEqual(completed.body);
    expect((await gateway.call(`/v1/admin/refunds/${id}`, { token: gateway.adminToken })).body).toEqual(completed.body);
    expectError(await requestRefund(a.keys.live_secret, payment.id), 409, 'Payment already refunded');

    // On the audit trail under the refund's merchant and mode; a refused stage is not, a repeat answered unchanged is, as such (as in the dashboard).
    const audited = await db.query(`SELECT actor_id, merchant_id, livemode, action, detail FROM gateway.audit_entries WHERE target_id = $1 ORDER BY position`, [id]);
    const stage = (action: string, detail: string | null = null) => ({ actor_id: expect.stringMatching(/^admin-token:/), merchant_id: a.merchant_id, livemode: true, action, detail });
    expect(audited.rows).toEqual([
      stage('refund.approved'),
      stage('refund.approved', 'already approved'),
      stage('refund.marked_sent'),
      stage('refund.completed', EVIDENCE.outbound_reference),
      stage('refund.completed', 'already completed'),
      stage('refund.completed', 'already completed'),
    ]);
  });

  it('emits exactly one payment.refunded when the completion is repeated concurrently', async () => {
    const EVIDENCE = newEvidence();
    const { payment, refund } = await sentLiveRefund();
    const results = await Promise.all(Array.from({ length: 10 }, () => admin(`/${refund.id}/complete`, EVIDENCE)));
    expect(results.map((result) => result.status)).toEqual(Array(10).fill(200));
    expect(new Set(results.map((result) => result.body.completed_at)).size).toBe(1);
    expect(await refundedEvents(a.keys.live_secret, payment.id)).toHaveLength(1);
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM ledger.events WHERE stream_id = $1 AND type = 'transaction.refunded'`, [`transaction-${payment.id}`]);
    expect(rows[0].n).toBe(1);
  });

  it.each([
    ['live', () => livePayment(), (m: ProvisionedMerchantView) => m.keys.live_secret],
    ['test', () => testPayment(), (m: ProvisionedMerchantView) => m.keys.test_secret],
  ] as const)('keeps exactly one refund for 20 concurrent requests (%s)', async (mode, pay, keyOf) => {
    const payment = await pay();
    const results = await Promise.all(Array.from({ length: 20 }, () => requestRefund(keyOf(a), payment.id)));
    expect(results.filter((result) => result.status === 201)).toHaveLength(1);
    const refused = results.filter((result) => result.status !== 201);
    // Live: the unique index refuses the losers; test: the winner refunded the payment at once, so most losers learn that.
    const reasons = mode === 'live' ? ['A refund is already open for this payment'] : ['A refund is already open for this payment', 'Payment already refunded'];
    for (const result of refused) expect({ status: result.status, error: reasons.includes((result.body as unknown as { error: string }).error) }).toEqual({ status: 409, error: true });
    const { rows } = await db.query('SELECT count(*)::int AS n FROM ledger.refunds WHERE payment_id = $1', [payment.id]);
    expect(rows[0].n).toBe(1);
    const listed = await gateway.call<RefundView[]>(`/v1/refunds?payment_id=${payment.id}`, { token: keyOf(a) });
    expect(listed.body).toHaveLength(1);
    expect(await refundedEvents(keyOf(a), payment.id)).toHaveLength(mode === 'live' ? 0 : 1);
  });

  it('refuses a live completion whose outbound reference completed another refund: one bank transfer is the proof of one refund', async () => {
    const first = await sentLiveRefund();
    const second = await sentLiveRefund();
    const EVIDENCE = newEvidence();
    expect((await admin(`/${first.refund.id}/complete`, EVIDENCE)).body.status).toBe('COMPLETED');

    const reference = EVIDENCE.outbound_reference;
    for (const spelt of [` ${reference.toLowerCase()} `, `${reference.slice(0, 2)} ${reference.slice(2)}`, reference.split('').join(' '), `${reference.slice(0, 1)}-${reference.slice(1)}`, `${reference.slice(0, 2)}.${reference.slice(2)}`]) {
      expectError(await admin(`/${second.refund.id}/complete`, { ...EVIDENCE, outbound_reference: spelt }), 409, 'This outbound_reference already completed another refund');
    }
    // What is no bank's reference is refused at the edge: invisible or no-break spaces, or more than an index entry holds.
    for (const unlike of [`${reference.slice(0, 2)}\u200b${reference.slice(2)}`, `${reference.slice(0, 2)}\u00a0${reference.slice(2)}`, '-CA77', '款'.repeat(1000)]) {
      const refused = await admin(`/${second.refund.id}/complete`, { ...EVIDENCE, outbound_reference: unlike });
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 400, body: { error: expect.stringContaining('Validation failed: outbound_reference must be') } });
    }
    expect((await gateway.call<RefundView>(`/v1/refunds/${second.refund.id}`, { token: a.keys.live_secret })).body.status).toBe('SENT');
    expect(await paymentStatus(a.keys.live_secret, second.payment.id)).toBe('CONFIRMED');
    expect(await refundedEvents(a.keys.live_secret, second.payment.id)).toEqual([]);

    expect((await admin(`/${second.refund.id}/complete`, newEvidence())).body.status).toBe('COMPLETED');
  });

  it('rejects with a reason; the payment stays CONFIRMED and may be refunded again', async () => {
    const payment = await livePayment();
    const refund = (await requestRefund(a.keys.live_secret, payment.id)).body;
    expectError(await admin(`/${refund.id}/reject`, {}), 400, 'Validation failed: rejection_reason is required');
    for (const hidden of ['Outside\u0001 the window', 'Outside the \u202ewodniw']) {
      expectError(await admin(`/${refund.id}/reject`, { rejection_reason: hidden }), 400, 'Validation failed: rejection_reason must not contain control or invisible formatting characters');
    }
    const rejected = await admin(`/${refund.id}/reject`, { rejection_reason: 'Outside the refund window' });
    expect(rejected.body).toMatchObject({ status: 'REJECTED', rejection_reason: 'Outside the refund window', rejected_at: expect.any(String) });
    expectError(await admin(`/${refund.id}/mark-sent`), 409, 'Refund is REJECTED; it cannot be marked sent');
    expect(await paymentStatus(a.keys.live_secret, payment.id)).toBe('CONFIRMED');
    expect((await requestRefund(a.keys.live_secret, payment.id)).body).toMatchObject({ status: 'REQUESTED' });
  });

  it('fails after SENT (the transfer bounced); a new refund may then be requested and completed', async () => {
    const EVIDENCE = newEvidence();
    const { payment, refund } = await sentLiveRefund();
    expectError(await admin(`/${refund.id}/fail`, { failure_reason: '' }), 400, 'Validation failed: failure_reason is required');
    const failed = await admin(`/${refund.id}/fail`, { failure_reason: 'Recipient account closed' });
    expect(failed.body).toMatchObject({ status: 'FAILED', failure_reason: 'Recipient account closed', failed_at: expect.any(String) });
    expectError(await admin(`/${refund.id}/complete`, EVIDENCE), 409, 'Refund is FAILED; it cannot be completed');
    expect(await paymentStatus(a.keys.live_secret, payment.id)).toBe('CONFIRMED');
    const again = (await requestRefund(a.keys.live_secret, payment.id)).body;
    expect(again).toMatchObject({ status: 'REQUESTED' });
    await admin(`/${again.id}/approve`);
    await admin(`/${again.id}/mark-sent`);
    expect((await admin(`/${again.id}/complete`, EVIDENCE)).body.status).toBe('COMPLETED');
    expect(await refundedEvents(a.keys.live_secret, payment.id)).toHaveLength(1);
    const listed = await gateway.call<RefundView[]>(`/v1/refunds?payment_id=${payment.id}`, { token: a.keys.live_secret });
    expect(listed.body.map((r) => [r.id, r.status])).toEqual([[again.id, 'COMPLETED'], [refund.id, 'FAILED']]);
  });

  it('cancels before approval (HTTP and the dashboard command); a new refund may then be requested; once approved only the operator may stop it', async () => {
    const payment = await livePayment();
    const first = (await requestRefund(a.keys.live_secret, payment.id)).body;
    const cancelled = await gateway.call(`/v1/refunds/${first.id}/cancel`, { token: a.keys.live_secret, method: 'POST' });
    expect(cancelled).toMatchObject({ status: 200, body: { status: 'CANCELLED', cancelled_at: expect.any(String) } });
    expect(cancelled.body).not.toHaveProperty('changed');
    expectError(await admin(`/${first.id}/approve`), 409, 'Refund is CANCELLED; it cannot be approved');

    const second = await bus.request('refunds.request.v1', { merchant_id: a.merchant_id, livemode: true, payment_id: payment.id, requested_by: 'usr_owner' });
    expect(second).toMatchObject({ status: 'REQUESTED', requested_by: 'usr_owner', replayed: false });
    const byDashboard = await bus.request('refunds.cancel.v1', { merchant_id: a.merchant_id, livemode: true, refund_id: second.id, cancelled_by: 'usr_owner' });
    expect(byDashboard.status).toBe('CANCELLED');

    // Approved, the operator may be sending the money: the merchant can no longer withdraw it; the operator can.
    const third = (await requestRefund(a.keys.live_secret, payment.id)).body;
    await admin(`/${third.id}/approve`);
    expectError(await gateway.call(`/v1/refunds/${third.id}/cancel`, { token: a.keys.live_secret, method: 'POST' }), 409, 'Refund is APPROVED; it cannot be cancelled');
    const withdrawn = await admin(`/${third.id}/reject`, { rejection_reason: 'The merchant withdrew it before it was sent' });
    expect(withdrawn.body).toMatchObject({ status: 'REJECTED', rejection_reason: 'The merchant withdrew it before it was sent' });

    const fourth = (await requestRefund(a.keys.live_secret, payment.id)).body;
    await admin(`/${fourth.id}/approve`);
    await admin(`/${fourth.id}/mark-sent`);
    expectError(await gateway.call(`/v1/refunds/${fourth.id}/cancel`, { token: a.keys.live_secret, method: 'POST' }), 409, 'Refund is SENT; it cannot be cancelled');
  });

  it('refuses payments that are not CONFIRMED, and unknown ones', async () => {
    const failed = await testPayment(a, 'failed');
    expectError(await requestRefund(a.keys.test_secret, failed.id), 409, 'A FAILED payment cannot be refunded');
    const review = await testPayment(a, 'requires_manual_review');
    expectError(await requestRefund(a.keys.test_secret, review.id), 409, 'A REQUIRES_MANUAL_REVIEW payment cannot be refunded');
    expectError(await requestRefund(a.keys.test_secret, 'txn_doesnotexist0000000000'), 404, 'Payment not found');
    expectError(await requestRefund(a.keys.test_secret, 'not-a-payment'), 400, 'Validation failed: payment_id must look like txn_…');
    expectError(await gateway.call('/v1/refunds/rf_doesnotexist', { token: a.keys.test_secret }), 404, 'Refund not found');
    expectError(await admin('/rf_doesnotexist/approve'), 404, 'Refund not found');
  });

  it('answers 404 for another merchant’s or the other mode’s payments and refunds', async () => {
    const live = await livePayment();
    const test = await testPayment();
    expectError(await requestRefund(b.keys.live_secret, live.id), 404, 'Payment not found');
    expectError(await requestRefund(a.keys.test_secret, live.id), 404, 'Payment not found');
    expectError(await requestRefund(a.keys.live_secret, test.id), 404, 'Payment not found');
    const refund = (await requestRefund(a.keys.live_secret, live.id)).body;
    for (const token of [b.keys.live_secret, a.keys.test_secret]) {
      expectError(await gateway.call(`/v1/refunds/${refund.id}`, { token }), 404, 'Refund not found');
      expectError(await gateway.call(`/v1/refunds/${refund.id}/cancel`, { token, method: 'POST' }), 404, 'Refund not found');
      expect((await gateway.call<RefundView[]>(`/v1/refunds?payment_id=${live.id}`, { token })).body).toEqual([]);
    }
    expectError(await gateway.call(`/v1/refunds?starting_after=${refund.id}`, { token: b.keys.live_secret }), 400, 'Invalid query parameters');
    expect((await gateway.call<RefundView>(`/v1/refunds/${refund.id}`, { token: a.keys.live_secret })).body.status).toBe('REQUESTED');
  });

  it('lists newest first with payment_id and status filters, limit and starting_after', async () => {
    const merchant = await gateway.createMerchant('Lister');
    const refunds: RefundView[] = [];
    for (let i = 0; i < 3; i++) refunds.push((await requestRefund(merchant.keys.test_secret, (await testPayment(merchant)).id)).body);
    const token = merchant.keys.test_secret;
    const all = await gateway.call<RefundView[]>('/v1/refunds', { token });
    expect(all.body.map((r) => r.id)).toEqual(refunds.map((r) => r.id).reverse());
    expect(all.headers.get('x-has-more')).toBe('false');
    const first = await gateway.call<RefundView[]>('/v1/refunds?limit=2', { token });
    expect(first.body.map((r) => r.id)).toEqual([refunds[2].id, refunds[1].id]);
    expect(first.headers.get('x-has-more')).toBe('true');
    const next = await gateway.call<RefundView[]>(`/v1/refunds?limit=2&starting_after=${refunds[1].id}`, { token });
    expect(next.body.map((r) => r.id)).toEqual([refunds[0].id]);
    expect(next.headers.get('x-has-more')).toBe('false');
    expect((await gateway.call<RefundView[]>(`/v1/refunds?payment_id=${refunds[1].payment_id}`, { token })).body.map((r) => r.id)).toEqual([refunds[1].id]);
    expect((await gateway.call<RefundView[]>('/v1/refunds?status=COMPLETED', { token })).body).toHaveLength(3);
    expect((await gateway.call<RefundView[]>('/v1/refunds?status=REQUESTED', { token })).body).toEqual([]);
    for (const query of ['limit=0', 'limit=51', 'limit=x', 'status=DONE', 'payment_id=nope', 'starting_after=nope', 'colour=red']) {
      expectError(await gateway.call(`/v1/refunds?${query}`, { token }), 400, 'Invalid query parameters');
    }
    expectError(await gateway.call('/v1/admin/refunds?limit=99', { token: gateway.adminToken }), 400, 'Invalid query parameters');
  });
});
