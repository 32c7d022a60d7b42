import { randomUUID } from 'node:crypto';
import {
  CheckoutSessionEventType,
  type CheckoutSessionCreatedView,
  type CreateCheckoutSessionCommand,
  EMAIL_RECORDED_FOR_ANOTHER_MERCHANT_RULE,
  ErrorCode,
  type MerchantScope,
  type RecordTransferCommand,
} from '@pp/contracts';
import { generateMemo, newSessionId } from '@pp/kernel';
import { BusClient } from '@pp/platform';
import { genuineNoticeEvidence, TestStack } from '@pp/testing';
import type { Pool } from 'pg';
import { paymentIdOfEmail } from './record-transfer.handler';

const LIVE: MerchantScope = { merchant_id: 'mer_shop', livemode: true };
const TEST: MerchantScope = { merchant_id: 'mer_shop', livemode: false };
const OTHER: MerchantScope = { merchant_id: 'mer_other', livemode: true };

describe('payments.record-transfer.v1 (live e-mail transfers)', () => {
  let stack: TestStack;
  let bus: BusClient;
  let db: Pool;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['ledger', 'sessions'], label: 'transfers' });
    bus = await stack.bus(15_000);
    db = await stack.sql();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const createSession = (scope: MerchantScope, amount = 5000): Promise<CheckoutSessionCreatedView> =>
    bus.request('sessions.create.v1', {
      ...scope,
      body: { amount, currency: 'cad', reference: `order-${randomUUID()}`, success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/no', metadata: { o: '1' } },
      idempotency: { key: randomUUID(), fingerprint: 'fp' },
    } as CreateCheckoutSessionCommand);

  const transfer = (overrides: Partial<RecordTransferCommand> = {}): RecordTransferCommand => ({
    merchant_id: LIVE.merchant_id,
    livemode: true,
    email_id: `em_${randomUUID().replace(/-/g, '')}`,
    memo: null,
    amount: 5000,
    sender_name: 'Jo Payer',
    sender_email: 'jo@bank.example',
    comment: 'thanks',
    reference_number: 'C1ABCDEF',
    evidence: genuineNoticeEvidence(),
    ...overrides,
  });

  const record = (command: RecordTransferCommand) => bus.request('payments.record-transfer.v1', command);
  const status = async (scope: MerchantScope, id: string) => (await bus.request('sessions.get.v1', { ...scope, session_id: id })).status;
  const merchantEventsOf = async (paymentId: string) =>
    (await db.query(`SELECT type, livemode, data FROM ledger.merchant_events WHERE data->>'payment_id' = $1 ORDER BY position`, [paymentId])).rows;

  it('auto-confirms (AUTO_EMAIL) a matching transfer and completes the session in the same append', async () => {
    const session = await createSession(LIVE);
    const payment = await record(transfer({ memo: session.memo.toLowerCase().replace('-', ' ') }));
    expect(payment).toMatchObject({
      id: expect.stringMatching(/^txn_/),
      status: 'CONFIRMED',
      verification_method: 'AUTO_EMAIL',
      etransfer_ref: session.memo,
      session_id: session.id,
      livemode: true,
      sender_name: 'Jo Payer',
      sender_email: 'jo@bank.example',
      comment: 'thanks',
      review_reasons: [],
    });
    expect(await status(LIVE, session.id)).toBe('COMPLETED');
    const confirmed = { reference: session.reference, amount: 5000, status: 'CONFIRMED', metadata: { o: '1' }, session_id: session.id, payment_id: payment.id };
    expect(await merchantEventsOf(payment.id)).toEqual([
      { type: 'payment.confirmed', livemode: true, data: confirmed },
      { type: 'checkout.session.completed', livemode: true, data: confirmed },
    ]);
    const { rows } = await db.query(
      `SELECT DISTINCT transaction_id FROM ledger.events WHERE stream_id = $1 OR (stream_id = $2 AND type <> 'session.created')`,
      [
      `transaction-${payment.id}`,
      `checkout_session-${session.id}`,
      ],
    );
    expect(rows).toHaveLength(1); // payment and session facts committed by one database transaction
  });

  it.each([
    ['wrong_amount', async () => ({ memo: (await createSession(LIVE, 4000)).memo }), ['wrong_amount'], true],
    ['unknown_memo (no memo)', async () => ({ memo: null }), ['unknown_memo'], false],
    ['unknown_memo (nobody’s memo)', async () => ({ memo: 'PP-ZZZZZZ' }), ['unknown_memo'], false],
    ['unknown_memo (another merchant’s session)', async () => ({ memo: (await createSession(OTHER)).memo }), ['unknown_memo'], false],
    ['test_session', async () => ({ memo: (await createSession(TEST)).memo }), ['test_session'], false],
    ['a reason from the ingest', async () => ({ memo: (await createSession(LIVE)).memo, evidence: genuineNoticeEvidence({ authenticated: false }) }), ['unauthenticated_sender'], true],
    [
      'recipient_mismatch (a genuine notice signed to another address)',
      async () => ({ memo: (await createSession(LIVE)).memo, evidence: genuineNoticeEvidence({ signed_recipient: 'payer@attacker.example' }) }),
      ['recipient_mismatch'],
      true,
    ],
  ] as const)('records %s as REQUIRES_MANUAL_REVIEW with payment.pending_review', async (_name, given, reasons, linked) => {
    const overrides = await given();
    const payment = await record(transfer(overrides));
    expect(payment).toMatchObject({ status: 'REQUIRES_MANUAL_REVIEW', verification_method: 'AUTO_EMAIL', review_reasons: reasons, livemode: true });
    expect(payment.session_id === null).toBe(!linked);
    const events = await merchantEventsOf(payment.id);
    expect(events).toEqual([{ type: 'payment.pending_review', livemode: true, data: expect.objectContaining({ status: 'REQUIRES_MANUAL_REVIEW', review_reasons: reasons, amount: 5000 }) }]);
    if (payment.session_id) expect(await status(LIVE, payment.session_id)).toBe('PENDING');
  });

  it('given a burst of transfers recorded at once (their memos looked up together), each is matched to its own session', async () => {
    const [first, second, others] = await Promise.all([createSession(LIVE, 5000), createSession(LIVE, 7000), createSession(OTHER, 5000)]);
    const payments = await Promise.all([
      record(transfer({ memo: first.memo })),
      record(transfer({ memo: 'PP-ZZZZZZ' })),
      record(transfer({ memo: second.memo, amount: 7000 })),
      record(transfer({ memo: others.memo })),
    ]);
    expect(payments.map((payment) => [payment.status, payment.session_id, payment.review_reasons])).toEqual([
      ['CONFIRMED', first.id, []],
      ['REQUIRES_MANUAL_REVIEW', null, ['unknown_memo']],
      ['CONFIRMED', second.id, []],
      ['REQUIRES_MANUAL_REVIEW', null, ['unknown_memo']],
    ]);
  });

  it('never confirms a test session, and never links it', async () => {
    const session = await createSession(TEST);
    const payment = await record(transfer({ memo: session.memo }));
    expect(payment).toMatchObject({ status: 'REQUIRES_MANUAL_REVIEW', session_id: null });
    expect(await status(TEST, session.id)).toBe('PENDING');
  });

  it('records session_completed for a second transfer to a completed session', async () => {
    const session = await createSession(LIVE);
    expect((await record(transfer({ memo: session.memo }))).status).toBe('CONFIRMED');
    const second = await record(transfer({ memo: session.memo }));
    expect(second).toMatchObject({ status: 'REQUIRES_MANUAL_REVIEW', review_reasons: ['session_completed'], session_id: session.id });
  });

  it('records session_expired for a transfer after the deadline; verifying it confirms the payment and leaves the session EXPIRED', async () => {
    const id = newSessionId();
    const past = Date.now() - 3_600_000;
    const memo = generateMemo();
    await bus.request('ledger.append.v1', {
      stream_id: `checkout_session-${id}`,
      expected_version: 0,
      events: [
        {
          type: CheckoutSessionEventType.Created,
          schema_version: 1,
          data: {
            session_id: id, ...LIVE, amount: 5000, currency: 'CAD', reference: `late-${id}`, memo, client_secret: 'cs_secret_x',
            success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/no', metadata: null,
            created_at: new Date(past).toISOString(), expires_at: new Date(past + 1_800_000).toISOString(),
          },
        },
      ],
      metadata: LIVE,
    });
    const payment = await record(transfer({ memo }));
    expect(payment).toMatchObject({ status: 'REQUIRES_MANUAL_REVIEW', review_reasons: ['session_expired'], session_id: id });

    const verified = await bus.request('payments.verify.v1', { ...LIVE, payment_id: payment.id, verified_by: 'usr_owner' });
    expect(verified).toMatchObject({ status: 'CONFIRMED', verification_method: 'MANUAL_ADMIN', verified_by: 'usr_owner' });
    expect(await status(LIVE, id)).not.toBe('COMPLETED');
    const facts = (await bus.request('ledger.stream.read.v1', { stream_id: `checkout_session-${id}` })).events.map((event) => event.type);
    expect(facts).not.toContain(CheckoutSessionEventType.Completed);
    expect((await merchantEventsOf(payment.id)).map((event) => event.type)).toEqual(['payment.pending_review', 'payment.confirmed']);
  });

  it('is idempotent by email_id: a repeat, even with other contents, answers the first payment and emits nothing', async () => {
    const session = await createSession(LIVE);
    const first = await record(transfer({ email_id: 'em_repeat', memo: session.memo }));
    const repeat = await record(transfer({ email_id: 'em_repeat', memo: null, amount: 1 }));
    expect(repeat).toEqual(first);
    expect(first.id).toBe(paymentIdOfEmail('em_repeat'));
    expect((await merchantEventsOf(first.id)).map((event) => event.type)).toEqual(['payment.confirmed', 'checkout.session.completed']);
  });

  it('given an e-mail recorded for one merchant, when it is handed off again for another (its address moved), then the refusal names the merchant that holds it and carries its payment', async () => {
    const first = await record(transfer({ email_id: 'em_moved' }));
    const refusal = await record(transfer({ email_id: 'em_moved', merchant_id: 'mer_other_owner' })).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toMatchObject({
      code: ErrorCode.Conflict,
      details: { rule: EMAIL_RECORDED_FOR_ANOTHER_MERCHANT_RULE, merchant_id: LIVE.merchant_id, payment: first },
    });
  });

  it('given a payment in review for an e-mail, when a repeat of it would confirm the still-open session: answers the payment in review and leaves the session open', async () => {
    const session = await createSession(LIVE);
    const first = await record(transfer({ email_id: 'em_repeat_open', memo: session.memo, amount: 1 }));
    expect(first).toMatchObject({ status: 'REQUIRES_MANUAL_REVIEW', review_reasons: ['wrong_amount'] });
    const repeat = await record(transfer({ email_id: 'em_repeat_open', memo: session.memo }));
    expect(repeat).toEqual(first);
    expect(await status(LIVE, session.id)).toBe('PENDING');
    const facts = (await bus.request('ledger.stream.read.v1', { stream_id: `checkout_session-${session.id}` })).events.map((event) => event.type);
    expect(facts).not.toContain(CheckoutSessionEventType.Completed);
    expect((await merchantEventsOf(first.id)).map((event) => event.type)).toEqual(['payment.pending_review']);
  });

  it('records one payment for 10 concurrent deliveries of the same e-mail', async () => {
    const session = await createSession(LIVE);
    const command = transfer({ email_id: 'em_concurrent', memo: session.memo });
    const results = await Promise.all(Array.from({ length: 10 }, () => record(command)));
    expect(new Set(results.map((payment) => payment.id)).size).toBe(1);
    expect(results).toEqual(expect.arrayOf(expect.objectContaining({ status: 'CONFIRMED' })));
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM ledger.payments WHERE email_id = 'em_concurrent'`);
    expect(rows[0].n).toBe(1);
    expect((await merchantEventsOf(results[0].id)).map((event) => event.type)).toEqual(['payment.confirmed', 'checkout.session.completed']);
  });

  it('confirms a session once when two different transfers for it race: the other is session_completed', async () => {
    const session = await createSession(LIVE);
    const results = await Promise.all([1, 2, 3].map(() => record(transfer({ memo: session.memo }))));
    expect(results.map((payment) => payment.status).sort()).toEqual(['CONFIRMED', 'REQUIRES_MANUAL_REVIEW', 'REQUIRES_MANUAL_REVIEW']);
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM ledger.merchant_events WHERE type = 'checkout.session.completed' AND data->>'session_id' = $1`, [session.id]);
    expect(rows[0].n).toBe(1);
  });

  it('refuses a command without evidence: nothing confirms on the word of the caller alone', async () => {
    const bare: Partial<RecordTransferCommand> = transfer({ memo: (await createSession(LIVE)).memo });
    delete bare.evidence;
    const error = await record(bare as RecordTransferCommand).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('evidence must be an object') });
  });

  it('refuses a test-mode command', async () => {
    const error = await record({ ...transfer(), livemode: false } as unknown as RecordTransferCommand).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
