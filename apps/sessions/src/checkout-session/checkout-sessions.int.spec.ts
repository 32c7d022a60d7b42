import { randomUUID } from 'node:crypto';
import { checkoutSessionStreamId, type CreateCheckoutSessionCommand, DomainError, ErrorCode, type MerchantScope } from '@pp/contracts';
import { BusClient, requestContext } from '@pp/platform';
import { TestStack } from '@pp/testing';
import type { Pool } from 'pg';

const TEST: MerchantScope = { merchant_id: 'mer_a', livemode: false };
const LIVE: MerchantScope = { merchant_id: 'mer_a', livemode: true };
const OTHER: MerchantScope = { merchant_id: 'mer_b', livemode: false };

const body = (overrides: Record<string, unknown> = {}) => ({
  amount: 2500,
  currency: 'cad',
  reference: `order-${randomUUID()}`,
  success_url: 'https://shop.example/success',
  cancel_url: 'https://shop.example/cancel',
  metadata: { cart: '42', customer: 'c_1' },
  ...overrides,
});

describe('checkout sessions over NATS (sessions + ledger)', () => {
  let stack: TestStack;
  let bus: BusClient;
  let db: Pool;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['ledger', 'sessions'], label: 'sessions', env: { CHECKOUT_URL_BASE: 'https://pay.example.com/' } });
    bus = await stack.bus(10_000);
    db = await stack.sql();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const create = (scope: MerchantScope, overrides: Record<string, unknown> = {}, key = randomUUID(), fingerprint = 'fp') =>
    bus.request('sessions.create.v1', {
      ...scope,
      body: body(overrides),
      idempotency: { key, fingerprint },
    } as CreateCheckoutSessionCommand);

  const failureOf = (promise: Promise<unknown>): Promise<DomainError> =>
    promise.then(
      () => {
        throw new Error('expected a failure');
      },
      (error: DomainError) => error,
    );

  it('creates a PENDING session and reads it back at once with every field', async () => {
    const before = Date.now();
    const created = await create(TEST, { reference: 'order-1', metadata: { cart: '42' } });
    expect(created).toEqual({
      id: expect.stringMatching(/^[a-z0-9]{20,32}$/),
      checkout_url: `https://pay.example.com/sessions/${created.id}`,
      client_secret: expect.stringMatching(new RegExp(`^${created.id}_secret_[0-9A-Za-z]{30,}$`)),
      status: 'PENDING',
      livemode: false,
      reference: 'order-1',
      memo: expect.stringMatching(/^PP-[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{6}$/),
      expires_at: expect.any(String),
      replayed: false,
    });
    const fetched = await bus.request('sessions.get.v1', { ...TEST, session_id: created.id });
    expect(fetched).toEqual({
      id: created.id,
      amount: 2500,
      currency: 'CAD',
      reference: 'order-1',
      memo: created.memo,
      status: 'PENDING',
      livemode: false,
      client_secret: created.client_secret,
      success_url: 'https://shop.example/success',
      cancel_url: 'https://shop.example/cancel',
      metadata: { cart: '42' },
      expires_at: created.expires_at,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const createdAt = Date.parse(fetched.created_at);
    expect(createdAt).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(fetched.expires_at) - createdAt).toBe(1800 * 1000);
  });

  it('given a caller’s request id, when the session is created, then the ledger records it as the event’s correlation id two hops away', async () => {
    const created = await requestContext.run({ requestId: 'req-corr-7' }, () => create(TEST));
    const stored = await db.query(`SELECT metadata->>'correlation_id' AS correlation_id FROM ledger.events WHERE stream_id = $1`, [checkoutSessionStreamId(created.id)]);
    expect(stored.rows).toEqual([{ correlation_id: 'req-corr-7' }]);
  });

  it('stores a missing metadata as null, and gives each session its own memo and secret', async () => {
    const withoutMetadata: Record<string, unknown> = body();
    delete withoutMetadata.metadata;
    const created = await bus.request('sessions.create.v1', { ...TEST, body: withoutMetadata, idempotency: { key: randomUUID(), fingerprint: 'x' } } as unknown as CreateCheckoutSessionCommand);
    expect((await bus.request('sessions.get.v1', { ...TEST, session_id: created.id })).metadata).toBeNull();
    const many = await Promise.all(Array.from({ length: 20 }, () => create(TEST)));
    expect(new Set(many.map((session) => session.memo)).size).toBe(20);
    expect(new Set(many.map((session) => session.client_secret)).size).toBe(20);
  });

  it.each([
    ['success_url', { success_url: 'http://shop.example/ok' }, /^Validation failed: success_url must be a fully qualified https URL/],
    ['cancel_url', { cancel_url: 'https://intranet/x' }, /^Validation failed: cancel_url must be a fully qualified https URL/],
  ])('refuses a %s the mode does not allow, with a message naming it (the other rules are the edge’s)', async (_field, overrides, message) => {
    const error = await failureOf(create(TEST, overrides));
    expect(error.code).toBe(ErrorCode.ValidationFailed);
    expect(error.message).toMatch(message);
  });

  it('accepts http://localhost URLs in test mode only', async () => {
    const local = { success_url: 'http://localhost:8080/ok', cancel_url: 'http://127.0.0.1/cancel' };
    await expect(create(TEST, local)).resolves.toMatchObject({ status: 'PENDING' });
    const error = await failureOf(create(LIVE, local));
    expect(error.message).toMatch(/success_url must be a fully qualified https URL/);
  });

  it('keeps references unique per merchant and mode', async () => {
    await create(TEST, { reference: 'dup-ref' });
    const error = await failureOf(create(TEST, { reference: 'dup-ref' }));
    expect(error).toMatchObject({ code: ErrorCode.Conflict, message: 'Reference already exists' });
    await expect(create(LIVE, { reference: 'dup-ref' })).resolves.toMatchObject({ livemode: true });
    await expect(create(OTHER, { reference: 'dup-ref' })).resolves.toMatchObject({ reference: 'dup-ref' });
  });

  it('answers NOT_FOUND for unknown, foreign and other-mode sessions', async () => {
    const created = await create(TEST);
    for (const [scope, id] of [
      [TEST, 'doesnotexist'],
      [OTHER, created.id],
      [{ ...TEST, livemode: true }, created.id],
    ] as const) {
      const error = await failureOf(bus.request('sessions.get.v1', { ...scope, session_id: id }));
      expect(error).toMatchObject({ code: ErrorCode.NotFound, message: 'Checkout session not found' });
    }
  });

  it('creates once per idempotency key, replays the original answer, and refuses a changed request', async () => {
    const key = randomUUID();
    const fixed = body();
    const send = (fingerprint: string) =>
      bus.request('sessions.create.v1', { ...TEST, body: fixed, idempotency: { key, fingerprint } } as CreateCheckoutSessionCommand);
    const replies = await Promise.all(Array.from({ length: 6 }, () => send('fp-1')));
    expect(new Set(replies.map((reply) => reply.id)).size).toBe(1);
    expect(replies.filter((reply) => !reply.replayed)).toHaveLength(1);
    const original = replies.find((reply) => !reply.replayed)!;
    const again = await send('fp-1');
    expect(again).toEqual({ ...original, replayed: true });

    const changed = await failureOf(send('fp-2'));
    expect(changed).toMatchObject({ code: ErrorCode.ValidationFailed, message: 'Idempotency-Key reused with different parameters' });
    // the same key in the other mode is another key
    const live = await bus.request('sessions.create.v1', { ...LIVE, body: body(), idempotency: { key, fingerprint: 'fp-2' } } as CreateCheckoutSessionCommand);
    expect(live.replayed).toBe(false);
  });

  it('completes a pending session only through a payment of its owner', async () => {
    const created = await create(TEST);
    const pay = (scope: MerchantScope) =>
      bus.request('payments.simulate.v1', { ...scope, session_id: created.id, outcome: 'confirmed', idempotency: { key: randomUUID(), fingerprint: 'fp' } });
    expect((await failureOf(pay(OTHER))).code).toBe(ErrorCode.NotFound);
    expect(await bus.request('sessions.get.v1', { ...TEST, session_id: created.id })).toMatchObject({ status: 'PENDING' });

    const paid = await pay(TEST);
    expect(paid.transaction).toMatchObject({ session_id: created.id, status: 'CONFIRMED' });
    expect(await bus.request('sessions.get.v1', { ...TEST, session_id: created.id })).toMatchObject({ status: 'COMPLETED' });
  });
});
