import { randomUUID } from 'node:crypto';
import {
  CheckoutSessionEventType,
  type CheckoutSessionView,
  type CreateCheckoutSessionCommand,
  type MerchantEventView,
  type MerchantScope,
  type SimulatePaymentReply,
  type PaymentView,
} from '@pp/contracts';
import { generateMemo, newSessionId } from '@pp/kernel';
import { BusClient } from '@pp/platform';
import { TestStack } from '@pp/testing';
import type { ProvisionedMerchantView } from '../identity/identity.views';
import { GatewayClient } from '../testing/gateway-client';

/*
 * PRODUCT-RULES §4.3-§4.6 end to end: gateway → sessions → ledger → Postgres, through
 * HTTP wherever the route is HTTP (manual verification is a bus command the
 * dashboard will send).
 */

const sessionBody = (overrides: Record<string, unknown> = {}) => ({
  amount: 2500,
  currency: 'cad',
  reference: `order-${randomUUID()}`,
  success_url: 'https://shop.example/ok',
  cancel_url: 'https://shop.example/cancel',
  metadata: { cart: '42' },
  ...overrides,
});

describe('sandbox simulator, payments and events over HTTP', () => {
  let stack: TestStack;
  let gateway: GatewayClient;
  let bus: BusClient;
  let a: ProvisionedMerchantView;
  let b: ProvisionedMerchantView;

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['gateway', 'sessions', 'ledger'],
      label: 'sandbox',
      env: { RATE_LIMIT_TEST_PER_SECOND: '5000', RATE_LIMIT_LIVE_PER_SECOND: '5000' },
    });
    gateway = new GatewayClient(stack);
    [a, b] = await Promise.all([gateway.createMerchant('A'), gateway.createMerchant('B')]);
    bus = await stack.bus(15_000);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const createSession = async (token: string, overrides: Record<string, unknown> = {}) => {
    const result = await gateway.call('/v1/checkout/sessions', { token, body: sessionBody(overrides) });
    expect(result.status).toBe(201);
    return result.body as { id: string; reference: string; memo: string; livemode: boolean };
  };
  const simulate = (token: string, body: Record<string, unknown>, idempotencyKey?: string) =>
    gateway.call<SimulatePaymentReply>('/v1/sandbox/simulate-payment', { token, body, ...(idempotencyKey ? { idempotencyKey } : {}) });
  const eventsOf = async (token: string, query = '') => {
    const result = await gateway.call(`/v1/events?limit=50${query}`, { token });
    expect(result.status).toBe(200);
    return result.body as Array<{ id: string; type: string; livemode: boolean; created_at: string; data: Record<string, unknown> }>;
  };
  const sessionEvents = async (token: string, sessionId: string) =>
    (await eventsOf(token)).filter((event) => event.data.session_id === sessionId).reverse();

  /** A session whose 30 minutes are already over, written to the ledger as the sessions service would have. */
  async function expiredSession(scope: MerchantScope): Promise<string> {
    const id = newSessionId();
    const past = Date.now() - 3_600_000;
    await bus.request('ledger.append.v1', {
      stream_id: `checkout_session-${id}`,
      expected_version: 0,
      events: [
        {
          type: CheckoutSessionEventType.Created,
          schema_version: 1,
          data: {
            session_id: id,
            ...scope,
            amount: 900,
            currency: 'CAD',
            reference: `late-${id}`,
            memo: generateMemo(),
            client_secret: `cs_secret_${id}`,
            success_url: 'https://shop.example/ok',
            cancel_url: 'https://shop.example/cancel',
            metadata: null,
            created_at: new Date(past).toISOString(),
            expires_at: new Date(past + 1_800_000).toISOString(),
          },
        },
      ],
      metadata: scope,
    });
    return id;
  }

  describe('POST /v1/sandbox/simulate-payment', () => {
    it('confirmed: CONFIRMED payment, COMPLETED session, checkout.session.completed and payment.confirmed (livemode false)', async () => {
      const session = await createSession(a.keys.test_secret);
      const result = await simulate(a.keys.test_secret, { sessionId: session.id, outcome: 'confirmed' });
      expect(result.status).toBe(200);
      const { transaction } = result.body;
      expect(transaction).toEqual({
        id: expect.stringMatching(/^txn_[a-z0-9]+$/),
        etransfer_ref: session.memo,
        amount: 2500,
        sender_name: 'Test Payer',
        sender_email: 'test.payer@example.com',
        comment: session.memo,
        status: 'CONFIRMED',
        verification_method: 'AUTO_EMAIL',
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        session_id: session.id,
        livemode: false,
        review_reasons: [],
        verified_by: null,
      });
      expect(result.body.session).toMatchObject({ id: session.id, status: 'COMPLETED', livemode: false, amount: 2500 });
      expect((await gateway.call<CheckoutSessionView>(`/v1/checkout/sessions/${session.id}`, { token: a.keys.test_secret })).body.status).toBe('COMPLETED');

      const events = await sessionEvents(a.keys.test_secret, session.id);
      expect(events.map((event) => event.type)).toEqual(['payment.confirmed', 'checkout.session.completed']);
      for (const event of events) {
        expect(event).toEqual({ id: expect.stringMatching(/^evt_/), type: event.type, livemode: false, created_at: expect.any(String), data: expect.any(Object) });
      }
      expect(events[0].data).toEqual({
        reference: session.reference,
        amount: 2500,
        status: 'CONFIRMED',
        metadata: { cart: '42' },
        session_id: session.id,
        payment_id: transaction.id,
      });
      expect(events[1].data).toEqual({ reference: session.reference, amount: 2500, status: 'CONFIRMED', metadata: { cart: '42' }, session_id: session.id, payment_id: transaction.id });
    });

    it.each([
      ['failed', 'FAILED', 'payment.failed'],
      ['requires_manual_review', 'REQUIRES_MANUAL_REVIEW', 'payment.pending_review'],
    ])('%s: %s payment, the session stays PENDING, one %s event', async (outcome, status, type) => {
      const session = await createSession(a.keys.test_secret);
      const result = await simulate(a.keys.test_secret, { sessionId: session.id, outcome });
      expect(result.status).toBe(200);
      expect(result.body.transaction).toMatchObject({ status, session_id: session.id, livemode: false });
      expect(result.body.session).toMatchObject({ id: session.id, status: 'PENDING' });
      const events = await sessionEvents(a.keys.test_secret, session.id);
      expect(events.map((event) => event.type)).toEqual([type]);
      expect(events[0]).toMatchObject({ livemode: false, data: { status, amount: 2500, reference: session.reference, payment_id: result.body.transaction.id } });
      expect((await gateway.call<CheckoutSessionView>(`/v1/checkout/sessions/${session.id}`, { token: a.keys.test_secret })).body.status).toBe('PENDING');
    });

    it('finds the session by its reference written with surrounding spaces, trimmed as it was at creation', async () => {
      const session = await createSession(a.keys.test_secret, { reference: ` order-spaced-${randomUUID()} ` });
      expect(session.reference).toBe(session.reference.trim());
      const result = await simulate(a.keys.test_secret, { reference: ` ${session.reference}  `, outcome: 'confirmed' });
      expect({ status: result.status, session: result.body.session?.id }).toEqual({ status: 200, session: session.id });
    });

    it('finds the session by reference, case-insensitively', async () => {
      const session = await createSession(a.keys.test_secret, { reference: `Order-MiXeD-${randomUUID()}` });
      const result = await simulate(a.keys.test_secret, { reference: session.reference.toUpperCase(), outcome: 'confirmed' });
      expect(result.status).toBe(200);
      expect(result.body.session).toMatchObject({ id: session.id, status: 'COMPLETED' });
    });

    it('answers every failed precondition with its status and message', async () => {
      const own = await createSession(a.keys.test_secret);
      const foreign = await createSession(b.keys.test_secret);
      const live = await createSession(a.keys.live_secret);
      const expired = await expiredSession({ merchant_id: a.merchant_id, livemode: false });
      const completed = await createSession(a.keys.test_secret);
      expect((await simulate(a.keys.test_secret, { sessionId: completed.id, outcome: 'confirmed' })).status).toBe(200);

      const cases: Array<[string, string, Record<string, unknown>, number, string]> = [
        ['unknown session', a.keys.test_secret, { sessionId: 'clnothere000000000000000', outcome: 'confirmed' }, 404, 'Checkout session not found'],
        ['an id no session can have, which the ledger would refuse in its own words', a.keys.test_secret, { sessionId: 'a.b', outcome: 'confirmed' }, 404, 'Checkout session not found'],
        ['unknown reference', a.keys.test_secret, { reference: 'no-such-reference', outcome: 'confirmed' }, 404, 'Checkout session not found'],
        // No session's reference may hold one (creation refuses it): refused as creation refuses it, not looked for.
        ['a reference with a bidi override', a.keys.test_secret, { reference: 'order\u202e42', outcome: 'confirmed' }, 400, 'Validation failed: reference must not contain control or invisible formatting characters'],
        ['another merchant’s session', a.keys.test_secret, { sessionId: foreign.id, outcome: 'confirmed' }, 404, 'Checkout session not found'],
        ['a live session with a test key', a.keys.test_secret, { sessionId: live.id, outcome: 'confirmed' }, 404, 'Checkout session not found'],
        ['an expired session', a.keys.test_secret, { sessionId: expired, outcome: 'failed' }, 409, 'Checkout session expired'],
        ['a completed session', a.keys.test_secret, { sessionId: completed.id, outcome: 'confirmed' }, 409, 'Checkout session already completed'],
        ['a completed session, other outcome', a.keys.test_secret, { sessionId: completed.id, outcome: 'failed' }, 409, 'Checkout session already completed'],
        ['a live key', a.keys.live_secret, { sessionId: live.id, outcome: 'confirmed' }, 403, 'Simulate payment requires a test key'],
        ['both sessionId and reference', a.keys.test_secret, { sessionId: own.id, reference: own.reference, outcome: 'confirmed' }, 400, 'Validation failed: exactly one of sessionId and reference is required'],
        ['neither sessionId nor reference', a.keys.test_secret, { outcome: 'confirmed' }, 400, 'Validation failed: exactly one of sessionId and reference is required'],
        ['an unknown outcome', a.keys.test_secret, { sessionId: own.id, outcome: 'refunded' }, 400, 'Validation failed: outcome must be one of confirmed, failed, requires_manual_review'],
        ['a missing outcome', a.keys.test_secret, { sessionId: own.id }, 400, 'Validation failed: outcome is required'],
      ];
      for (const [name, token, body, status, error] of cases) {
        const result = await simulate(token, body);
        expect({ name, status: result.status, body: result.body }).toEqual({ name, status, body: { error } });
      }
      const noKey = await gateway.call('/v1/sandbox/simulate-payment', { token: a.keys.test_secret, body: { sessionId: own.id, outcome: 'confirmed' }, idempotencyKey: null });
      expect(noKey).toMatchObject({ status: 400, body: { error: 'Validation failed: Idempotency-Key header is required' } });
      // A live key is refused as such whatever else is wrong: no Idempotency-Key, an empty body.
      for (const path of ['/v1/sandbox/simulate-payment', '/v1/sandbox/expire-session']) {
        const live = await gateway.call(path, { token: a.keys.live_secret, body: {}, idempotencyKey: null });
        expect({ path, status: live.status, body: live.body }).toEqual({ path, status: 403, body: { error: expect.stringContaining('requires a test key') } });
      }
      // None of the refusals touched the sessions.
      expect((await gateway.call<CheckoutSessionView>(`/v1/checkout/sessions/${own.id}`, { token: a.keys.test_secret })).body.status).toBe('PENDING');
      expect((await gateway.call<CheckoutSessionView>(`/v1/checkout/sessions/${live.id}`, { token: a.keys.live_secret })).body.status).toBe('PENDING');
    });

    it('confirms a session once: of two concurrent confirmations one is 200, the other 409, and one payment.confirmed exists', async () => {
      const session = await createSession(a.keys.test_secret);
      const results = await Promise.all([1, 2, 3].map(() => simulate(a.keys.test_secret, { sessionId: session.id, outcome: 'confirmed' })));
      expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
      for (const refused of results.filter((r) => r.status === 409)) expect(refused.body).toEqual({ error: 'Checkout session already completed' });
      const again = await simulate(a.keys.test_secret, { sessionId: session.id, outcome: 'confirmed' });
      expect(again).toMatchObject({ status: 409, body: { error: 'Checkout session already completed' } });
      const types = (await sessionEvents(a.keys.test_secret, session.id)).map((event) => event.type);
      expect(types.filter((type) => type === 'payment.confirmed')).toHaveLength(1);
      expect(types.filter((type) => type === 'checkout.session.completed')).toHaveLength(1);
      const payments = await gateway.call(`/v1/payments?reference=${encodeURIComponent(session.reference)}&limit=50`, { token: a.keys.test_secret });
      expect(payments.body).toHaveLength(1);
    });

    it('replays a repeated Idempotency-Key: at the gateway, and in the service when the first answer was lost', async () => {
      const session = await createSession(a.keys.test_secret);
      const key = randomUUID();
      const first = await simulate(a.keys.test_secret, { sessionId: session.id, outcome: 'confirmed' }, key);
      const replay = await simulate(a.keys.test_secret, { sessionId: session.id, outcome: 'confirmed' }, key);
      expect(replay.status).toBe(200);
      expect(replay.headers.get('x-cache-lookup')).toBe('HIT');
      expect(replay.body).toEqual(first.body);

      // The bus path the checkout page uses, retried after the session completed: the original answer.
      const other = await createSession(a.keys.test_secret);
      const command = { merchant_id: a.merchant_id, livemode: false, session_id: other.id, outcome: 'confirmed' as const, idempotency: { key: randomUUID(), fingerprint: 'fp' } };
      const original = await bus.request('payments.simulate.v1', command);
      const retried = await bus.request('payments.simulate.v1', command);
      expect(retried).toEqual({ ...original, replayed: true });
      expect((await sessionEvents(a.keys.test_secret, other.id)).map((event) => event.type)).toEqual(['payment.confirmed', 'checkout.session.completed']);
    });
  });

  describe('POST /v1/sandbox/expire-session', () => {
    it('answers an unknown id, and one no session can have, 404 as the same unknown session', async () => {
      for (const sessionId of ['clnothere000000000000000', 'a.b', 'A-B']) {
        const result = await gateway.call('/v1/sandbox/expire-session', { token: a.keys.test_secret, body: { sessionId } });
        expect({ sessionId, status: result.status, body: result.body }).toEqual({ sessionId, status: 404, body: { error: 'Checkout session not found' } });
      }
    });
  });

  describe('manual verification (payments.verify.v1)', () => {
    it('confirms a payment under review with MANUAL_ADMIN, completes its session, emits payment.confirmed once; again is a no-op', async () => {
      const session = await createSession(a.keys.test_secret);
      const review = (await simulate(a.keys.test_secret, { sessionId: session.id, outcome: 'requires_manual_review' })).body.transaction;
      const verify = () => bus.request('payments.verify.v1', { merchant_id: a.merchant_id, livemode: false, payment_id: review.id, verified_by: 'usr_admin_1' });
      const verified = await verify();
      expect(verified).toMatchObject({ id: review.id, status: 'CONFIRMED', verification_method: 'MANUAL_ADMIN', verified_by: 'usr_admin_1' });
      expect((await gateway.call<CheckoutSessionView>(`/v1/checkout/sessions/${session.id}`, { token: a.keys.test_secret })).body.status).toBe('COMPLETED');
      const again = await verify();
      expect(again).toEqual(verified);
      expect((await sessionEvents(a.keys.test_secret, session.id)).map((event) => event.type)).toEqual([
        'payment.pending_review',
        'payment.confirmed',
        'checkout.session.completed',
      ]);
      const listed = await gateway.call(`/v1/payments?reference=${encodeURIComponent(session.reference)}`, { token: a.keys.test_secret });
      expect(listed.body).toEqual([expect.objectContaining({ id: review.id, status: 'CONFIRMED', verification_method: 'MANUAL_ADMIN' })]);
    });

    it('refuses a payment of another merchant or mode (not found) and a FAILED payment (conflict)', async () => {
      const session = await createSession(a.keys.test_secret);
      const failed = (await simulate(a.keys.test_secret, { sessionId: session.id, outcome: 'failed' })).body.transaction;
      const attempt = (scope: MerchantScope) =>
        bus.request('payments.verify.v1', { ...scope, payment_id: failed.id, verified_by: 'usr_x' }).then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(await attempt({ merchant_id: b.merchant_id, livemode: false })).toMatchObject({ code: 'NOT_FOUND', message: 'Payment not found' });
      expect(await attempt({ merchant_id: a.merchant_id, livemode: true })).toMatchObject({ code: 'NOT_FOUND' });
      expect(await attempt({ merchant_id: a.merchant_id, livemode: false })).toMatchObject({ code: 'CONFLICT', details: { rule: 'payment_transition', from: 'FAILED' } });
    });
  });

  describe('GET /v1/payments', () => {
    let c: ProvisionedMerchantView;
    const PAYMENTS = 120;

    beforeAll(async () => {
      c = await gateway.createMerchant('C');
      const scope = { merchant_id: c.merchant_id, livemode: false };
      for (let start = 0; start < PAYMENTS; start += 20) {
        await Promise.all(
          Array.from({ length: 20 }, async (_, j) => {
            const i = start + j;
            const session = await bus.request('sessions.create.v1', {
              ...scope,
              body: sessionBody({ reference: `bulk-${String(i).padStart(3, '0')}` }),
              idempotency: { key: randomUUID(), fingerprint: 'fp' },
            } as CreateCheckoutSessionCommand);
            await bus.request('payments.simulate.v1', {
              ...scope,
              session_id: session.id,
              outcome: i % 3 === 0 ? 'failed' : 'confirmed',
              idempotency: { key: randomUUID(), fingerprint: 'fp' },
            });
          }),
        );
      }
    });

    const list = (query: string, token = c.keys.test_secret) => gateway.call<PaymentView[]>(`/v1/payments${query}`, { token });

    it('pages through 120 payments newest first with starting_after, without duplicates or gaps', async () => {
      const seen: Array<{ id: string; created_at: string }> = [];
      let query = '?limit=50';
      for (;;) {
        const page = await list(query);
        expect(page.status).toBe(200);
        seen.push(...page.body);
        if (page.headers.get('x-has-more') === 'false') break;
        expect(page.headers.get('x-has-more')).toBe('true');
        query = `?limit=50&starting_after=${page.body[page.body.length - 1].id}`;
      }
      expect(seen).toHaveLength(PAYMENTS);
      expect(new Set(seen.map((p) => p.id)).size).toBe(PAYMENTS);
      const times = seen.map((p) => p.created_at);
      expect([...times].sort().reverse()).toEqual(times);
    });

    it('lists 10 by default as a plain array, and filters by status', async () => {
      const page = await list('');
      expect(page.body).toHaveLength(10);
      expect(page.headers.get('x-has-more')).toBe('true');
      const failed = await list('?status=FAILED&limit=50');
      expect(failed.body).toHaveLength(40);
      expect(failed.body).toEqual(expect.arrayOf(expect.objectContaining({ status: 'FAILED' })));
      expect(failed.headers.get('x-has-more')).toBe('false');
      expect((await list('?status=REFUNDED')).body).toEqual([]);
    });

    it('matches reference partially on the session reference and the memo', async () => {
      const byReference = await list('?reference=LK-10&limit=50');
      expect(byReference.body).toHaveLength(10); // bulk-100 … bulk-109, case-insensitive
      const memo = byReference.body[0].etransfer_ref as string;
      const byMemo = await list(`?reference=${encodeURIComponent(memo.slice(2).toLowerCase())}`);
      expect(byMemo.body.map((p: { id: string }) => p.id)).toContain(byReference.body[0].id);
    });

    it('treats %, _ and \\ in the reference as literal characters', async () => {
      const scope = { merchant_id: c.merchant_id, livemode: false };
      for (const reference of ['promo-50%_off', 'promo-50AB-off', 'back\\slash', 'backXslash']) {
        const session = await bus.request('sessions.create.v1', { ...scope, body: sessionBody({ reference }), idempotency: { key: randomUUID(), fingerprint: 'fp' } } as CreateCheckoutSessionCommand);
        await bus.request('payments.simulate.v1', { ...scope, session_id: session.id, outcome: 'failed', idempotency: { key: randomUUID(), fingerprint: 'fp' } });
      }
      const referencesOf = async (query: string) => {
        const page = await list(`?limit=50&reference=${encodeURIComponent(query)}`);
        expect(page.status).toBe(200);
        return Promise.all(page.body.map(async (p) => (await gateway.call<CheckoutSessionView>(`/v1/checkout/sessions/${p.session_id}`, { token: c.keys.test_secret })).body.reference));
      };
      expect(await referencesOf('50%_')).toEqual(['promo-50%_off']);
      expect(await referencesOf('%')).toEqual(['promo-50%_off']);
      expect(await referencesOf('_')).toEqual(['promo-50%_off']);
      expect(await referencesOf('k\\s')).toEqual(['back\\slash']);
    });

    it.each([
      ['limit=0'],
      ['limit=51'],
      ['limit=abc'],
      ['limit=1.5'],
      ['limit=-1'],
      ['status=SETTLED'],
      ['status=confirmed'],
      ['starting_after=nope'],
      ['starting_after=txn_doesnotexist000000'],
      ['unknown=1'],
      // Names objects reserve: the query's parse would skip them, not refuse them as unknown.
      ['toString=1'],
      ['constructor=1'],
      ['reference='],
      // What no session's reference may hold (create and search take the same text).
      ['reference=order%E2%80%AE42'],
      ['reference=order%0942'],
    ])('answers 400 Invalid query parameters for ?%s', async (query) => {
      expect(await list(`?${query}`)).toMatchObject({ status: 400, body: { error: 'Invalid query parameters' } });
    });

    it('accepts limit 1 and 50', async () => {
      expect((await list('?limit=1')).body).toHaveLength(1);
      expect((await list('?limit=50')).body).toHaveLength(50);
    });

    it('shows only the key’s merchant and mode', async () => {
      const cIds = new Set((await list('?limit=50')).body.map((p: { id: string }) => p.id));
      const others = [...(await list('?limit=50', a.keys.test_secret)).body, ...(await list('?limit=50', c.keys.live_secret)).body];
      expect(others.filter((p: { id: string }) => cIds.has(p.id))).toEqual([]);
      expect((await list('?limit=50', c.keys.live_secret)).body).toEqual([]);
      const foreignCursor = await list(`?starting_after=${[...cIds][0]}`, a.keys.test_secret);
      expect(foreignCursor).toMatchObject({ status: 400, body: { error: 'Invalid query parameters' } });
    });
  });

  describe('GET /v1/events and /v1/events/:id', () => {
    let d: ProvisionedMerchantView;

    beforeAll(async () => {
      d = await gateway.createMerchant('D');
      for (const outcome of ['confirmed', 'failed', 'requires_manual_review', 'confirmed', 'confirmed']) {
        const session = await createSession(d.keys.test_secret);
        expect((await simulate(d.keys.test_secret, { sessionId: session.id, outcome })).status).toBe(200);
      }
    });

    it('lists newest first, filters by type, pages with starting_after and X-Has-More', async () => {
      const all = await eventsOf(d.keys.test_secret);
      expect(all.map((event) => event.type).sort()).toEqual(
        ['payment.confirmed', 'checkout.session.completed', 'payment.failed', 'payment.pending_review', 'payment.confirmed', 'checkout.session.completed', 'payment.confirmed', 'checkout.session.completed'].sort(),
      );
      expect(all).toEqual(expect.arrayOf(expect.objectContaining({ livemode: false })));
      const times = all.map((event) => event.created_at);
      expect([...times].sort().reverse()).toEqual(times);

      const confirmed = await gateway.call<MerchantEventView[]>('/v1/events?type=payment.confirmed', { token: d.keys.test_secret });
      expect(confirmed.body.map((event: { type: string }) => event.type)).toEqual(['payment.confirmed', 'payment.confirmed', 'payment.confirmed']);

      const pages: string[] = [];
      let query = 'limit=3';
      for (;;) {
        const page = await gateway.call<MerchantEventView[]>(`/v1/events?${query}`, { token: d.keys.test_secret });
        pages.push(...page.body.map((event: { id: string }) => event.id));
        if (page.headers.get('x-has-more') !== 'true') break;
        query = `limit=3&starting_after=${page.body[page.body.length - 1].id}`;
      }
      expect(pages).toEqual(all.map((event) => event.id));
      expect((await gateway.call('/v1/events', { token: d.keys.test_secret })).body).toHaveLength(8);
    });

    it.each([['limit=0'], ['limit=51'], ['type=payment.exploded'], ['starting_after=evt_unknown00000000']])('answers 400 Invalid query parameters for ?%s', async (query) => {
      expect(await gateway.call(`/v1/events?${query}`, { token: d.keys.test_secret })).toMatchObject({ status: 400, body: { error: 'Invalid query parameters' } });
    });

    it('retrieves one event with its deliveries (none while the webhooks service is away)', async () => {
      const [latest] = await eventsOf(d.keys.test_secret);
      const result = await gateway.call(`/v1/events/${latest.id}`, { token: d.keys.test_secret });
      expect(result).toMatchObject({ status: 200, body: { ...latest, deliveries: [] } });
    });

    it('keeps events to their merchant and mode: 404 Event not found otherwise', async () => {
      const [latest] = await eventsOf(d.keys.test_secret);
      for (const token of [a.keys.test_secret, d.keys.live_secret]) {
        expect(await gateway.call(`/v1/events/${latest.id}`, { token })).toMatchObject({ status: 404, body: { error: 'Event not found' } });
        expect((await eventsOf(token)).map((event) => event.id)).not.toContain(latest.id);
      }
      expect(await gateway.call('/v1/events/not-an-event', { token: d.keys.test_secret })).toMatchObject({ status: 404, body: { error: 'Event not found' } });
    });
  });
});
