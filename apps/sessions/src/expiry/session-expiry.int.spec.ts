import { randomUUID } from 'node:crypto';
import { CheckoutSessionEventType, checkoutPreviewStreamId, type CreateCheckoutSessionCommand, DomainError, type MerchantScope, MerchantEventType } from '@pp/contracts';
import { AggregateStore, BusClient, CommandRunner, LedgerEventStore, queuePrefix } from '@pp/platform';
import { TestStack, testInfra, waitFor } from '@pp/testing';
import Redis from 'ioredis';
import type { Pool } from 'pg';
import { CheckoutSessionLifecycle } from '../checkout-session/checkout-session.lifecycle';
import { OpenCheckoutPreviewHandler } from '../checkout-preview/open-checkout-preview.handler';
import type { SessionsConfig } from '../sessions.config';
import { SimulatePaymentHandler } from '../payments/simulate-payment.handler';
import { EXPIRY_SWEEP_SCHEDULER } from './session-expiry.queue';

const SCOPE: MerchantScope = { merchant_id: 'mer_exp', livemode: false };

describe('checkout session expiry (TTL 4 s)', () => {
  let stack: TestStack;
  let bus: BusClient;
  let db: Pool;
  let redis: Redis;

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['ledger', 'sessions'],
      label: 'expiry',
      // Four seconds: the moved-deadline test needs room on both sides of each deadline on a loaded machine.
      env: { SESSION_TTL_SECONDS: '4', SESSION_EXPIRY_SWEEP_MS: '300', SESSION_SWEEP_INTERVAL_MS: '1000' },
    });
    bus = await stack.bus(10_000);
    db = await stack.sql();
    redis = new Redis(testInfra.redisUrl);
  });
  afterAll(async () => {
    redis?.disconnect();
    await stack?.stop();
  });

  const create = () =>
    bus.request('sessions.create.v1', {
      ...SCOPE,
      body: { amount: 1000, currency: 'cad', reference: `r-${randomUUID()}`, success_url: 'https://a.example/s', cancel_url: 'https://a.example/c', metadata: { k: 'v' } },
      idempotency: { key: randomUUID(), fingerprint: 'fp' },
    } as CreateCheckoutSessionCommand);

  const status = async (id: string) => (await bus.request('sessions.get.v1', { ...SCOPE, session_id: id })).status;

  const terminalFacts = async (id: string) =>
    (await bus.request('ledger.stream.read.v1', { stream_id: `checkout_session-${id}` })).events
      .map((event) => event.type)
      .filter((type) => type !== CheckoutSessionEventType.Created);

  /** The session's facts once the sweep has expired it (its status reads EXPIRED from the deadline on, before the sweep). */
  const factsOnceExpired = (id: string) =>
    waitFor('the sweep to expire the session', async () => {
      const facts = await terminalFacts(id);
      return facts.includes(CheckoutSessionEventType.Expired) && facts;
    }, { timeoutMs: 15_000 });

  /** When the sweep's fact says the session expired. */
  const expiredAt = async (id: string) => {
    const { events } = await bus.request('ledger.stream.read.v1', { stream_id: `checkout_session-${id}` });
    const expired = events.find((event) => event.type === CheckoutSessionEventType.Expired);
    return Date.parse((expired?.data as { expired_at: string }).expired_at);
  };

  const merchantEvents = async (id: string) =>
    (await db.query(`SELECT id, type, data FROM ledger.merchant_events WHERE data->>'session_id' = $1`, [id])).rows;

  it('expires a pending session at its deadline and records checkout.session.expired for the merchant', async () => {
    const created = await create();
    expect(await status(created.id)).toBe('PENDING');
    expect(await factsOnceExpired(created.id)).toEqual([CheckoutSessionEventType.Expired, MerchantEventType.CheckoutSessionExpired]);
    expect(await expiredAt(created.id)).toBeGreaterThanOrEqual(Date.parse(created.expires_at));
    expect(await status(created.id)).toBe('EXPIRED');
    const [event] = await merchantEvents(created.id);
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'checkout.session.expired',
      data: { reference: created.reference, amount: 1000, status: 'EXPIRED', metadata: { k: 'v' }, session_id: created.id },
    });
  });

  it('queues nothing per session: Redis holds the sweep’s schedule, not one job per open session', async () => {
    const created = await Promise.all(Array.from({ length: 5 }, () => create()));
    const keys = await redis.keys(`${queuePrefix(stack.namespace)}:session-expiry:*`);
    for (const session of created) expect(keys.filter((key) => key.includes(session.id))).toEqual([]);
    expect(await redis.exists(`${queuePrefix(stack.namespace)}:session-expiry:repeat:${EXPIRY_SWEEP_SCHEDULER}`)).toBe(1);
  });

  it('still expires the session, and schedules the sweep again, when Redis lost every key of the queue', async () => {
    const created = await create();
    const schedule = `${queuePrefix(stack.namespace)}:session-expiry:repeat:${EXPIRY_SWEEP_SCHEDULER}`;
    const keys = await redis.keys(`${queuePrefix(stack.namespace)}:*`);
    expect(keys).toContain(schedule);
    // This namespace's whole BullMQ state, the sweep's schedule included. Not checked afterwards: the service
    // may already have scheduled the sweep again (seen in CI), which is what this test wants to see.
    expect(await redis.del(...keys)).toBeGreaterThan(0);

    expect(await factsOnceExpired(created.id)).toEqual([CheckoutSessionEventType.Expired, MerchantEventType.CheckoutSessionExpired]);
    await waitFor('the sweep to be scheduled again', async () => (await redis.exists(schedule)) === 1, { timeoutMs: 5_000 });
  });

  it('honours a deadline moved later (the preview checkout reopened): not expired at the first deadline, expired at the new one', async () => {
    const merchant = `mer_preview${randomUUID().slice(0, 8)}`;
    const open = () => bus.request('sessions.preview.v1', { merchant_id: merchant, return_url: 'http://127.0.0.1:3002/developers' });
    const first = await open();
    expect(first.outcome).toBe('created');
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const second = await open();
    expect(second).toMatchObject({ outcome: 'extended', session: { id: first.session.id } });
    const moved = Date.parse(second.session.expires_at);
    expect(moved).toBeGreaterThan(Date.parse(first.session.expires_at) + 1500);
    const previewScope = { merchant_id: merchant, livemode: false };
    const statusOf = async () => (await bus.request('sessions.get.v1', { ...previewScope, session_id: first.session.id })).status;
    // Past the first deadline (and the sweeper's interval), before the new one.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(first.session.expires_at) + 600 - Date.now())));
    expect(Date.now()).toBeLessThan(moved);
    expect(await statusOf()).toBe('PENDING');
    expect(await factsOnceExpired(first.session.id)).toEqual([CheckoutSessionEventType.ExpiryExtended, CheckoutSessionEventType.Expired, MerchantEventType.CheckoutSessionExpired]);
    expect(await expiredAt(first.session.id)).toBeGreaterThanOrEqual(moved);
    expect(await statusOf()).toBe('EXPIRED');
    expect(await open()).toMatchObject({ outcome: 'created', session: { status: 'PENDING' } });
  });

  it('pages the ledger’s overdue sessions by deadline and id, each page after the last one’s', async () => {
    // Read-model rows due in 2099, two of them at one instant: no sweep reaches them, so the listing holds still.
    const ids = Array.from({ length: 5 }, (_, i) => `csp${i}${randomUUID().replace(/-/g, '').slice(0, 16)}`);
    const deadlines = ['2099-01-01T00:00:00.000Z', '2099-01-01T00:00:00.000Z', '2099-01-01T00:00:00.001Z', '2099-01-01T00:00:01.000Z', '2099-01-02T00:00:00.000Z'];
    for (const [i, id] of ids.entries()) {
      await db.query(
        `INSERT INTO ledger.checkout_sessions (id, merchant_id, livemode, amount, currency, reference, memo, status, client_secret, success_url, cancel_url, expires_at, created_at, version)
         VALUES ($1, 'mer_paging', false, 1000, 'CAD', $1, $2, 'PENDING', 'secret', 'https://a.example/s', 'https://a.example/c', $3, now(), 1)`,
        [id, `PP-${id.slice(-6).toUpperCase()}`, deadlines[i]],
      );
    }
    const order = (x: { expires_at: string; session_id: string }) => `${x.expires_at}|${x.session_id}`;
    const ours = ids.map((id, i) => ({ expires_at: deadlines[i], session_id: id })).sort((x, y) => order(x).localeCompare(order(y)));
    const overdue = (limit: number, after: { expires_at: string; session_id: string }) =>
      bus
        .request('ledger.checkout-sessions.overdue.v1', { due_by: '2100-01-01T00:00:00.000Z', limit, after })
        .then((page) => page.sessions.filter((x) => ids.includes(x.session_id)).map((x) => ({ expires_at: x.expires_at, session_id: x.session_id })));
    const first = await overdue(2, { expires_at: '2098-12-31T23:59:59.999Z', session_id: '0' });
    const second = await overdue(2, first[1]);
    const third = await overdue(2, second[1]);
    expect([...first, ...second, ...third]).toEqual(ours);
  });

  it('ends two preview opens racing its deadline on one session, the one the preview names', async () => {
    const store = new LedgerEventStore(bus, 'ledger.append-streams.v1');
    const openerAt = (now: Date) =>
      new OpenCheckoutPreviewHandler(new CommandRunner(new AggregateStore(store), store, { now: () => now }), {
        CHECKOUT_URL_BASE: 'http://127.0.0.1:3001',
        SESSION_TTL_SECONDS: 4,
      } as SessionsConfig);
    const races = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const merchant_id = `mer_prace${randomUUID().slice(0, 8)}`;
        const command = { merchant_id, return_url: 'http://127.0.0.1:3002/developers' };
        const first = await bus.request('sessions.preview.v1', command);
        const deadline = Date.parse(first.session.expires_at);
        // One open just before the deadline (it extends), one just after (it renews): each alone would commit.
        const [before, after] = await Promise.all([openerAt(new Date(deadline - 500)).open(command), openerAt(new Date(deadline + 1)).open(command)]);
        const preview = await bus.request('ledger.stream.read.v1', { stream_id: checkoutPreviewStreamId(merchant_id) });
        const named = (preview.events.at(-1)!.data as { session_id: string }).session_id;
        return { before: before.session.id, after: after.session.id, named };
      }),
    );
    for (const race of races) expect(race).toEqual({ before: race.named, after: race.named, named: race.named });
  });

  it('ends a payment racing the session’s expiry in exactly one of the two outcomes', async () => {
    const sessions = await Promise.all(Array.from({ length: 10 }, () => create()));
    const store = new LedgerEventStore(bus, 'ledger.append-streams.v1');
    const runnerAt = (now: Date) => new CommandRunner(new AggregateStore(store), store, { now: () => now });
    const outcomes = await Promise.all(
      sessions.map(async (session) => {
        const deadline = Date.parse(session.expires_at);
        // Two deciders with their own clocks: one still before the deadline, one after it.
        const payer = new SimulatePaymentHandler(bus, runnerAt(new Date(deadline - 500)), { now: () => new Date(deadline - 500) });
        const expirer = new CheckoutSessionLifecycle(runnerAt(new Date(deadline + 1)));
        const payment = { ...SCOPE, session_id: session.id, outcome: 'confirmed' as const, idempotency: { key: randomUUID(), fingerprint: 'fp' } };
        const [completed, expired] = await Promise.allSettled([payer.simulate(payment), expirer.expire(session.id)]);
        return { session, completed, expired };
      }),
    );
    for (const { session, completed, expired } of outcomes) {
      const facts = await terminalFacts(session.id);
      const merchant = (await merchantEvents(session.id)).map((event) => event.type);
      if (completed.status === 'fulfilled') {
        expect(facts).toEqual([CheckoutSessionEventType.Completed, MerchantEventType.CheckoutSessionCompleted]);
        expect(merchant).toEqual(['payment.confirmed', 'checkout.session.completed']);
        expect(expired).toMatchObject({ status: 'fulfilled', value: { status: 'COMPLETED' } });
      } else {
        expect((completed.reason as DomainError).message).toBe('Checkout session expired');
        expect(facts).toEqual([CheckoutSessionEventType.Expired, MerchantEventType.CheckoutSessionExpired]);
        expect(merchant).toEqual(['checkout.session.expired']);
      }
      expect(['COMPLETED', 'EXPIRED']).toContain(await status(session.id));
    }
  });
});
