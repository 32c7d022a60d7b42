import { randomUUID } from 'node:crypto';
import {
  INGEST_RAW_EMAIL_SUBJECT,
  ingestRawEmailStreamName,
  type AdminPaymentView,
  type QuarantinedEmailView,
  type RetryQuarantinedEmailReply,
  type PaymentView,
} from '@pp/contracts';
import { buildNotice, DEFAULT_SIGNED_HEADERS, signEmail, TestStack, testDkimKey, waitFor, writeDnsOverrides, type NoticeSpec } from '@pp/testing';
import type { NatsConnection } from 'nats';
import { connectNats } from '@pp/platform';
import type { Pool } from 'pg';
import type { ProvisionedMerchantView } from '../identity/identity.views';
import { GatewayClient } from '../testing/gateway-client';

/*
 * Live e-mail ingest end to end (PRODUCT-RULES §3.1-§3.2, issue 7): signed Interac
 * notices posted to POST /v1/internal/ingest-email or published to JetStream
 * become payments of the merchant whose deposit address they were sent to,
 * through the real gateway, ingest, sessions and ledger processes.
 */

const SESSION_TTL_SECONDS = 15;
const EVIL = testDkimKey('evil.example');

interface Session {
  id: string;
  memo: string;
  reference: string;
  amount: number;
  status: string;
}

describe('live e-mail ingest: matching, review, quarantine', () => {
  let stack: TestStack;
  let gateway: GatewayClient;
  let nc: NatsConnection;
  let db: Pool;
  let shop: ProvisionedMerchantView;
  let stranger: ProvisionedMerchantView;
  let toExpire: Session;
  let serial = 0;
  const SHOP_ADDRESS = 'Payments@Shop.example';

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['gateway', 'sessions', 'ledger', 'ingest'],
      label: 'live-email',
      env: {
        INGEST_DNS_OVERRIDES: writeDnsOverrides(testDkimKey(), EVIL),
        SESSION_TTL_SECONDS: String(SESSION_TTL_SECONDS),
        INGEST_SWEEP_INTERVAL_MS: '2000',
        RATE_LIMIT_LIVE_PER_SECOND: '5000',
        RATE_LIMIT_TEST_PER_SECOND: '5000',
      },
    });
    gateway = new GatewayClient(stack);
    nc = await connectNats(stack.env.NATS_URL, 'live-email-ingest-spec');
    db = await stack.sql();
    shop = await gateway.createMerchant('Shop');
    stranger = await gateway.createMerchant('Stranger');
    expect((await admin(`/v1/admin/merchants/${shop.merchant_id}`, { method: 'PATCH', body: { etransfer_email: SHOP_ADDRESS } })).status).toBe(200);
    // Created first, so that its deadline has passed (or nearly) when the expiry test runs last.
    toExpire = await createSession(shop.keys.live_secret);
  });

  afterAll(async () => {
    await (await nc?.jetstreamManager())?.streams.delete(ingestRawEmailStreamName(stack.namespace)).catch(() => undefined);
    await nc?.drain();
    await stack?.stop();
  });

  const admin = <T = unknown>(path: string, options: Parameters<GatewayClient['call']>[1] = {}) => gateway.call<T>(path, { token: gateway.adminToken, ...options });

  async function createSession(token: string, amount = 2500): Promise<Session> {
    const result = await gateway.call<Omit<Session, 'amount'>>('/v1/checkout/sessions', {
      token,
      body: { amount, currency: 'cad', reference: `order-${randomUUID()}`, success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/no' },
    });
    expect(result.status).toBe(201);
    return { ...result.body, amount }; // the creation answer (PRODUCT-RULES §4.1) does not repeat the amount
  }
  const sessionOf = async (token: string, id: string): Promise<Session> => (await gateway.call<Session>(`/v1/checkout/sessions/${id}`, { token })).body;

  const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
  /** A deposit notice with its own Message-ID and Interac reference number unless the spec sets them (unsigned). */
  const notice = (spec: NoticeSpec = {}) => {
    serial += 1;
    return buildNotice({
      to: SHOP_ADDRESS.toLowerCase(),
      messageId: `<live${serial}.${stack.namespace}@payments.interac.ca>`,
      reference: `C1A${stack.namespace.slice(-5)}${String(serial).padStart(4, '0')}`,
      ...spec,
    });
  };
  const depositFor = (session: Session, spec: NoticeSpec = {}) => notice({ message: session.memo, amount: dollars(session.amount), ...spec });

  const post = async (raw: string) => {
    const result = await gateway.call('/v1/internal/ingest-email', {
      token: stack.env.INGEST_TOKEN,
      body: raw,
      headers: { 'content-type': 'message/rfc822' },
      idempotencyKey: null,
    });
    expect(result.status).toBe(202);
    return result.body as { id: string; status: 'accepted' | 'duplicate' };
  };
  const publish = (raw: string) => nc.jetstream().publish(`${stack.namespace}.${INGEST_RAW_EMAIL_SUBJECT}`, Buffer.from(raw));

  const dispositionOf = (emailId: string, options?: Parameters<typeof waitFor>[2]) =>
    waitFor(
      `the hand-off of ${emailId}`,
      async () => (await db.query(`SELECT disposition FROM ingest.notice_handoffs WHERE email_id = $1`, [emailId])).rows[0]?.disposition as string | undefined,
      options,
    );
  const adminPayments = async (query = '') => {
    const result = await admin(`/v1/admin/payments?limit=100${query}`);
    expect(result.status).toBe(200);
    return result.body as AdminPaymentView[];
  };
  const paymentsOfEmail = async (emailId: string) => (await adminPayments()).filter((payment) => payment.email_id === emailId);
  const paymentOfEmail = (emailId: string) => waitFor(`the payment of ${emailId}`, async () => (await paymentsOfEmail(emailId))[0]);
  const eventsOf = async (token: string) => (await gateway.call('/v1/events?limit=50', { token })).body as Array<{ type: string; livemode: boolean; data: Record<string, unknown> }>;

  it('confirms a signed notice sent to the merchant’s deposit address with the session’s memo and amount', async () => {
    const session = await createSession(shop.keys.live_secret, 4321);
    const reply = await post(await signEmail(depositFor(session, { message: `thanks ${session.memo.toLowerCase().replace('-', ' ')}` })));
    expect(reply).toEqual({ id: expect.stringMatching(/^em_/), status: 'accepted' });
    expect(await dispositionOf(reply.id)).toBe('confirmed');

    const payments = (await gateway.call<PaymentView[]>(`/v1/payments?reference=${session.memo}`, { token: shop.keys.live_secret })).body;
    expect(payments).toEqual([
      expect.objectContaining({ status: 'CONFIRMED', verification_method: 'AUTO_EMAIL', amount: 4321, etransfer_ref: session.memo, session_id: session.id, livemode: true, sender_name: 'CAI FANG WU', review_reasons: [] }),
    ]);
    expect((await sessionOf(shop.keys.live_secret, session.id)).status).toBe('COMPLETED');
    const events = await waitFor('both events', async () => {
      const mine = (await eventsOf(shop.keys.live_secret)).filter((event) => event.data.session_id === session.id);
      return mine.length === 2 && mine;
    });
    expect(events.map((event) => [event.type, event.livemode]).sort()).toEqual([
      ['checkout.session.completed', true],
      ['payment.confirmed', true],
    ]);
    // Test mode sees nothing of it.
    expect((await gateway.call('/v1/payments', { token: shop.keys.test_secret })).body).toEqual([]);
  });

  /** Each case: a live session of the shop (or not), the raw message, and the reasons the payment must carry. */
  const reviewCases: Array<[string, (session: Session) => Promise<string>, string[]]> = [
    ['a wrong amount', async (s) => signEmail(depositFor(s, { amount: '$30.00' })), ['wrong_amount']],
    ['an unknown memo', async (s) => signEmail(depositFor(s, { message: 'PP-ZZZZZZ' })), ['unknown_memo']],
    ['no memo', async (s) => signEmail(depositFor(s, { message: null })), ['unknown_memo', 'memo_missing']],
    ['an unparseable amount (recorded as 0 cents)', async (s) => signEmail(depositFor(s, { amount: '$12.3.4', subjectAmount: '$12.3.4' })), ['wrong_amount', 'amount_unparseable']],
    ['an unsigned notice', async (s) => depositFor(s), ['unauthenticated_sender', 'dkim_missing']],
    ['a notice signed by another domain', async (s) => signEmail(depositFor(s, { fromDomain: 'evil.example' }), { key: EVIL }), ['unauthenticated_sender', 'dkim_untrusted_domain', 'from_not_trusted']],
    [
      'a fake Authentication-Results and DKIM-Signature header',
      async (s) =>
        depositFor(s, {
          extraHeaders: [
            'Authentication-Results: mx.shop.example; dkim=pass header.d=payments.interac.ca; spf=pass',
            'DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=payments.interac.ca; s=test2026; h=from:to:subject; bh=AAAA; b=BBBB',
          ],
        }),
      ['unauthenticated_sender', 'dkim_failed'],
    ],
    ['a second From header', async (s) => signEmail(depositFor(s, { extraHeaders: ['From: "SHOP OWNER" <notify@payments.interac.ca>'] })), ['unauthenticated_sender', 'header_not_unique:from', 'from_not_trusted']],
    [
      'a notice changed after signing (memo swapped)',
      async (s) => {
        const decoy = await createSession(shop.keys.live_secret);
        return (await signEmail(depositFor(decoy, { amount: dollars(s.amount) }))).replace(decoy.memo, s.memo);
      },
      ['unauthenticated_sender', 'dkim_failed'],
    ],
    [
      'a signature that does not cover Content-Type',
      async (s) => signEmail(depositFor(s), { headerList: DEFAULT_SIGNED_HEADERS.filter((header) => header !== 'content-type') }),
      ['unauthenticated_sender', 'dkim_headers_not_covered', 'header_not_signed:content-type'],
    ],
    [
      'a signature that does not cover Content-Transfer-Encoding and MIME-Version',
      async (s) => signEmail(depositFor(s), { headerList: DEFAULT_SIGNED_HEADERS.filter((header) => !['content-transfer-encoding', 'mime-version'].includes(header)) }),
      ['unauthenticated_sender', 'dkim_headers_not_covered', 'header_not_signed:content-transfer-encoding', 'header_not_signed:mime-version'],
    ],
    ['a signature that does not cover To', async (s) => signEmail(depositFor(s), { headerList: DEFAULT_SIGNED_HEADERS.filter((header) => header !== 'to') }), ['recipient_not_signed']],
  ];

  it.each(reviewCases)('records %s as REQUIRES_MANUAL_REVIEW with its reasons, never CONFIRMED', async (_case, message, reasons) => {
    const session = await createSession(shop.keys.live_secret);
    const reply = await post(await message(session));
    expect(await dispositionOf(reply.id)).toBe('manual_review');
    const payment = await paymentOfEmail(reply.id);
    expect(payment).toMatchObject({ merchant_id: shop.merchant_id, livemode: true, status: 'REQUIRES_MANUAL_REVIEW', email_id: reply.id });
    expect([...payment.review_reasons].sort()).toEqual([...reasons].sort());
    expect(Number.isInteger(payment.amount)).toBe(true);
    expect((await sessionOf(shop.keys.live_secret, session.id)).status).toBe('PENDING');
    await waitFor('payment.pending_review', async () =>
      (await eventsOf(shop.keys.live_secret)).find((event) => event.type === 'payment.pending_review' && event.data.payment_id === payment.id && event.livemode),
    );
  });

  describe('a genuine notice for the payer’s own transfer, re-sent to the merchant', () => {
    const PAYER = 'payer@attacker.example';
    /** The payer sends the session's amount with its memo to his own address; Interac signs the notice to him. */
    const ownNotice = (session: Session) => signEmail(depositFor(session, { to: PAYER, recipientName: 'PAYER HIMSELF' }));
    const paymentsOfSession = async (session: Session) =>
      (await gateway.call<PaymentView[]>(`/v1/payments?reference=${session.memo}`, { token: shop.keys.live_secret })).body as Array<{ status: string; review_reasons: string[]; session_id: string | null }>;

    it.each([
      ['the receiving server adds Delivered-To', (raw: string) => `Delivered-To: ${SHOP_ADDRESS.toLowerCase()}\n${raw}`, ['recipient_mismatch']],
      ['the payer prepends a second To above the signed one', (raw: string) => `To: <${SHOP_ADDRESS.toLowerCase()}>\n${raw}`, ['recipient_not_unique', 'recipient_mismatch']],
      [
        'both',
        (raw: string) => `Delivered-To: ${SHOP_ADDRESS.toLowerCase()}\nTo: "SHOP" <${SHOP_ADDRESS}>\n${raw}`,
        ['recipient_not_unique', 'recipient_mismatch'],
      ],
    ] as const)('never confirms the live session when %s: the merchant sees it for review', async (_how, resend, reasons) => {
      const session = await createSession(shop.keys.live_secret, 2500);
      const reply = await post(resend(await ownNotice(session)));
      expect(reply.status).toBe('accepted');
      expect(await dispositionOf(reply.id)).toBe('manual_review');

      const payments = await paymentsOfSession(session);
      expect(payments).toEqual([expect.objectContaining({ status: 'REQUIRES_MANUAL_REVIEW', amount: 2500, session_id: session.id, livemode: true })]);
      expect([...payments[0].review_reasons].sort()).toEqual([...reasons].sort());
      expect((await sessionOf(shop.keys.live_secret, session.id)).status).toBe('PENDING');
      expect(await paymentsOfEmail(reply.id)).toEqual([expect.objectContaining({ merchant_id: shop.merchant_id, status: 'REQUIRES_MANUAL_REVIEW' })]);

      // The session is still the payer's to pay: a genuine notice to the merchant's own address confirms it.
      const paid = await post(await signEmail(depositFor(session)));
      expect(await dispositionOf(paid.id)).toBe('confirmed');
      expect((await sessionOf(shop.keys.live_secret, session.id)).status).toBe('COMPLETED');
    });

    it('never confirms the live session when the recipient name the payer typed carries the merchant’s address: the merchant sees it for review', async () => {
      const session = await createSession(shop.keys.live_secret, 2500);
      // Interac quotes the name as typed, so the signed To reads "SHOP" <shop> "x" <payer>: a lenient parser finds the shop.
      const notice = await signEmail(depositFor(session, { to: PAYER, recipientName: `SHOP" <${SHOP_ADDRESS}> "x` }));
      const reply = await post(notice);
      expect(await dispositionOf(reply.id)).toBe('manual_review');

      const payments = await paymentsOfSession(session);
      expect(payments).toEqual([expect.objectContaining({ status: 'REQUIRES_MANUAL_REVIEW', amount: 2500, session_id: session.id })]);
      expect(payments[0].review_reasons).toContain('recipient_not_single_mailbox');
      expect((await sessionOf(shop.keys.live_secret, session.id)).status).toBe('PENDING');
    });

    it('quarantines the notice when nothing but its own (signed) recipient routes it', async () => {
      const session = await createSession(shop.keys.live_secret);
      const reply = await post(await ownNotice(session));
      expect(await dispositionOf(reply.id)).toBe('quarantined');
      expect(await paymentsOfSession(session)).toEqual([]);
    });
  });

  it('lets a genuine notice through after a forgery carrying its Message-ID: the forgery is reviewed, the genuine notice confirms', async () => {
    const session = await createSession(shop.keys.live_secret);
    const spec = { messageId: `<spoofed.${stack.namespace}@payments.interac.ca>`, reference: 'C1ASpoofed01' };
    const forged = await post(depositFor(session, spec));
    expect(forged.status).toBe('accepted');
    expect(await dispositionOf(forged.id)).toBe('manual_review');
    expect(await paymentOfEmail(forged.id)).toMatchObject({ status: 'REQUIRES_MANUAL_REVIEW', review_reasons: ['unauthenticated_sender', 'dkim_missing'] });
    expect((await sessionOf(shop.keys.live_secret, session.id)).status).toBe('PENDING');

    const raw = await signEmail(depositFor(session, spec));
    const genuine = await post(raw);
    expect(genuine).toEqual({ id: expect.not.stringMatching(forged.id), status: 'accepted' });
    expect(await dispositionOf(genuine.id)).toBe('confirmed');
    expect((await sessionOf(shop.keys.live_secret, session.id)).status).toBe('COMPLETED');
    // A replay of the very same bytes stays a duplicate.
    expect(await post(raw)).toEqual({ id: genuine.id, status: 'duplicate' });
    const statuses = (await gateway.call<PaymentView[]>(`/v1/payments?reference=${session.memo}`, { token: shop.keys.live_secret })).body.map((payment: { status: string }) => payment.status);
    expect(statuses.sort()).toEqual(['CONFIRMED', 'REQUIRES_MANUAL_REVIEW']);
  });

  it('records a second transfer to a completed session as session_completed', async () => {
    const session = await createSession(shop.keys.live_secret);
    expect(await dispositionOf((await post(await signEmail(depositFor(session)))).id)).toBe('confirmed');
    const second = await post(await signEmail(depositFor(session)));
    expect(await paymentOfEmail(second.id)).toMatchObject({ status: 'REQUIRES_MANUAL_REVIEW', review_reasons: ['session_completed'], session_id: session.id });
  });

  it('never confirms a test session from e-mail, nor links it', async () => {
    const session = await createSession(shop.keys.test_secret);
    const reply = await post(await signEmail(depositFor(session)));
    expect(await paymentOfEmail(reply.id)).toMatchObject({ status: 'REQUIRES_MANUAL_REVIEW', review_reasons: ['test_session'], session_id: null, livemode: true });
    expect((await sessionOf(shop.keys.test_secret, session.id)).status).toBe('PENDING');
  });

  it('records a replayed notice once: same message, or same Interac reference under a new Message-ID', async () => {
    const session = await createSession(shop.keys.live_secret);
    const raw = await signEmail(depositFor(session, { reference: 'C1AReplay001' }));
    const first = await post(raw);
    expect(await post(raw)).toEqual({ id: first.id, status: 'duplicate' });
    const copy = await post(await signEmail(depositFor(session, { reference: 'C1AReplay001' })));
    expect(copy.status).toBe('duplicate');
    expect(await paymentOfEmail(first.id)).toMatchObject({ status: 'CONFIRMED' });
    expect((await adminPayments()).filter((payment) => payment.reference_number === 'C1AReplay001')).toHaveLength(1);
  });

  it('records one payment when the same notice arrives over HTTP and JetStream at once', async () => {
    for (let round = 0; round < 3; round++) {
      const session = await createSession(shop.keys.live_secret);
      const raw = await signEmail(depositFor(session));
      const [reply] = await Promise.all([post(raw), publish(raw)]);
      await waitFor('both arrivals', async () => (await db.query(`SELECT 1 FROM ingest.email_receipts WHERE email_id = $1`, [reply.id])).rowCount === 2);
      expect(await dispositionOf(reply.id)).toBe('confirmed');
      const payments = (await gateway.call<PaymentView[]>(`/v1/payments?reference=${session.memo}`, { token: shop.keys.live_secret })).body;
      expect(payments.map((payment: { status: string }) => payment.status)).toEqual(['CONFIRMED']);
      const completions = (await eventsOf(shop.keys.live_secret)).filter((event) => event.type === 'checkout.session.completed' && event.data.session_id === session.id);
      expect(completions).toHaveLength(1);
    }
  });

  it.each([
    ['not-deposited', 'not_deposited'],
    ['reminder', 'reminder'],
    ['cancelled', 'cancelled'],
  ] as const)('creates no payment for a %s notice', async (_name, kind) => {
    const session = await createSession(shop.keys.live_secret);
    const reply = await post(await signEmail(depositFor(session, { kind })));
    expect(await dispositionOf(reply.id)).toBe('no_payment');
    expect(await paymentsOfEmail(reply.id)).toEqual([]);
    expect((await sessionOf(shop.keys.live_secret, session.id)).status).toBe('PENDING');
  });

  it('quarantines mail for no known deposit address; a retry after the merchant registers it matches', async () => {
    const address = `till.${randomUUID().slice(0, 8)}@stranger.example`;
    const session = await createSession(stranger.keys.live_secret, 1999);
    const reply = await post(await signEmail(depositFor(session, { to: address, extraHeaders: [`Delivered-To: ${address}`] })));
    expect(await dispositionOf(reply.id)).toBe('quarantined');

    const listed = await admin('/v1/admin/ingest/quarantine');
    expect(listed.status).toBe(200);
    expect(listed.headers.get('x-has-more')).toBe('false');
    const item = (listed.body as QuarantinedEmailView[]).find((entry) => entry.id === reply.id);
    expect(item).toMatchObject({ status: 'quarantined', recipients: [address], authenticated: true, amount_cents: 1999, memo: session.memo, reasons: [], release: null });
    expect((await admin('/v1/admin/ingest/quarantine', { token: shop.keys.live_secret })).status).toBe(401);

    const early = await admin(`/v1/admin/ingest/quarantine/${reply.id}/retry`, { method: 'POST' });
    expect(early).toMatchObject({ status: 409, body: { error: expect.stringMatching(/register it first/) } });
    expect(await paymentsOfEmail(reply.id)).toEqual([]);

    expect((await admin(`/v1/admin/merchants/${stranger.merchant_id}`, { method: 'PATCH', body: { etransfer_email: address.toUpperCase() } })).status).toBe(200);
    const retried = await admin<RetryQuarantinedEmailReply>(`/v1/admin/ingest/quarantine/${reply.id}/retry`, { method: 'POST' });
    expect(retried).toMatchObject({
      status: 200,
      body: { id: reply.id, merchant_id: stranger.merchant_id, disposition: 'confirmed', payment_id: expect.stringMatching(/^txn_/), released_by: expect.stringMatching(/^admin-token:/) },
    });
    const again = await admin(`/v1/admin/ingest/quarantine/${reply.id}/retry`, { method: 'POST' });
    expect(again.body).toEqual(retried.body);
    const audited = await db.query(`SELECT actor_id, merchant_id, livemode, action, detail FROM gateway.audit_entries WHERE target_id = $1 ORDER BY position`, [reply.id]);
    const release = { actor_id: expect.stringMatching(/^admin-token:/), merchant_id: stranger.merchant_id, livemode: true, action: 'quarantine.released' };
    expect(audited.rows).toEqual([
      { ...release, detail: `confirmed ${retried.body.payment_id}` },
      { ...release, detail: 'already released' },
    ]);

    expect((await sessionOf(stranger.keys.live_secret, session.id)).status).toBe('COMPLETED');
    expect(await paymentsOfEmail(reply.id)).toEqual([expect.objectContaining({ id: retried.body.payment_id, merchant_id: stranger.merchant_id, status: 'CONFIRMED' })]);
    expect(((await admin('/v1/admin/ingest/quarantine')).body as QuarantinedEmailView[]).map((entry) => entry.id)).not.toContain(reply.id);
    const released = (await admin('/v1/admin/ingest/quarantine?status=released')).body as QuarantinedEmailView[];
    expect(released.find((entry) => entry.id === reply.id)).toMatchObject({
      status: 'released',
      release: { merchant_id: stranger.merchant_id, disposition: 'confirmed', released_by: retried.body.released_by },
    });
    expect((await admin('/v1/admin/ingest/quarantine/em_nothinghere0/retry', { method: 'POST' })).status).toBe(404);
  });

  it('keeps a deposit address unique across merchants (409), whatever its case', async () => {
    const taken = await admin(`/v1/admin/merchants/${stranger.merchant_id}`, { method: 'PATCH', body: { etransfer_email: SHOP_ADDRESS.toUpperCase() } });
    expect(taken).toMatchObject({ status: 409, body: { error: 'etransfer_email is already the deposit address of another merchant' } });
    const created = await admin('/v1/admin/merchants', { body: { name: 'Copycat', email: `${randomUUID()}@example.com`, etransfer_email: SHOP_ADDRESS } });
    expect(created).toMatchObject({ status: 409, body: { error: 'etransfer_email is already the deposit address of another merchant' } });
  });

  it('lists the review queue across merchants for admins, newest first, paged', async () => {
    const queue = await adminPayments('&status=REQUIRES_MANUAL_REVIEW');
    expect(queue.length).toBeGreaterThanOrEqual(reviewCases.length);
    expect(queue).toEqual(expect.arrayOf(expect.objectContaining({ status: 'REQUIRES_MANUAL_REVIEW', merchant_id: shop.merchant_id })));
    const first = await admin('/v1/admin/payments?status=REQUIRES_MANUAL_REVIEW&limit=1');
    expect(first.headers.get('x-has-more')).toBe('true');
    expect(first.body).toEqual([queue[0]]);
    const next = await admin(`/v1/admin/payments?status=REQUIRES_MANUAL_REVIEW&limit=1&starting_after=${queue[0].id}`);
    expect(next.body).toEqual([queue[1]]);
    expect((await admin<AdminPaymentView[]>(`/v1/admin/payments?merchant_id=${stranger.merchant_id}`)).body.map((payment: AdminPaymentView) => payment.merchant_id)).toEqual([stranger.merchant_id]);
    expect((await admin('/v1/admin/payments?status=LOST')).body).toEqual({ error: 'Invalid query parameters' });
  });

  it(
    'records a transfer after the session expired as session_expired',
    async () => {
      await waitFor('the session to expire', async () => (await sessionOf(shop.keys.live_secret, toExpire.id)).status === 'EXPIRED', {
        timeoutMs: (SESSION_TTL_SECONDS + 30) * 1000,
        intervalMs: 500,
      });
      const reply = await post(await signEmail(depositFor(toExpire)));
      expect(await paymentOfEmail(reply.id)).toMatchObject({ status: 'REQUIRES_MANUAL_REVIEW', review_reasons: ['session_expired'], session_id: toExpire.id });
      expect((await sessionOf(shop.keys.live_secret, toExpire.id)).status).toBe('EXPIRED');
    },
    (SESSION_TTL_SECONDS + 60) * 1000,
  );

  it(
    'loses nothing when sessions is down at hand-off: the processing sweeper records the transfer once it is back',
    async () => {
      const session = await createSession(shop.keys.live_secret);
      await stack.stopService('sessions', 'SIGKILL');
      const reply = await post(await signEmail(depositFor(session)));
      expect(reply.status).toBe('accepted');
      expect((await db.query(`SELECT 1 FROM ingest.notice_handoffs WHERE email_id = $1`, [reply.id])).rowCount).toBe(0);
      await stack.startService('sessions');
      // The sweeper (every 2 s here) repeats the hand-off once sessions answers again: one confirmed payment.
      expect(await dispositionOf(reply.id, { timeoutMs: 30_000, intervalMs: 500 })).toBe('confirmed');
      expect(await paymentsOfEmail(reply.id)).toEqual([
        expect.objectContaining({ status: 'CONFIRMED', verification_method: 'AUTO_EMAIL', session_id: session.id, amount: session.amount }),
      ]);
    },
    60_000,
  );
});
