import { randomUUID } from 'node:crypto';
import { newSessionId } from '@pp/kernel';
import { BusHeader, connectNats, REDIS_COMMAND_TIMEOUT_MS } from '@pp/platform';
import { startStackWithFreezableRedis, type StackWithFreezableRedis } from '@pp/testing';
import type { NatsConnection, Subscription } from 'nats';
import type { Pool } from 'pg';
import type { ProvisionedMerchantView } from '../identity/identity.views';
import { GatewayClient } from '../testing/gateway-client';
import { publishPaymentConfirmed } from '../testing/published-event';
import { RawHttpConnection } from '../testing/raw-http-connection';
import { answerDeadlineMs } from './answer-deadline.policy';

/*
 * The gateway's overall bound on a request (AnswerDeadline), against real
 * Postgres, Redis and NATS. Waits the gateway cannot cut short are made by
 * hand: the API key table locked (a key lookup, a key issued, wait for it)
 * and Redis holding its answers back. API_KEY_CACHE_TTL_MS=0 makes every
 * request look its key up.
 */

const BUS_TIMEOUT_MS = 1_000;
const DEADLINE_MS = answerDeadlineMs(undefined, BUS_TIMEOUT_MS)!;
const SERVICE_UNAVAILABLE = JSON.stringify({ error: 'Service unavailable' });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const session = (reference: string) => ({ amount: 1250, currency: 'cad', reference, success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/no' });

describe('gateway: the answer deadline', () => {
  let frozen: StackWithFreezableRedis;
  let gateway: GatewayClient;
  let db: Pool;
  let harness: NatsConnection;
  let merchant: ProvisionedMerchantView;
  /** Request ids of the sessions.get.v1 calls the gateway made (the harness listens beside the sessions service). */
  const sessionReads: string[] = [];
  /** The time each webhooks.endpoints.list.v1 call was given (pp-timeout-ms): the harness stands in for the webhooks service. */
  const endpointListTimeouts: number[] = [];
  const subscriptions: Subscription[] = [];

  beforeAll(async () => {
    frozen = await startStackWithFreezableRedis({
      services: ['ledger'],
      label: 'deadline',
      env: { NATS_REQUEST_TIMEOUT_MS: String(BUS_TIMEOUT_MS), API_KEY_CACHE_TTL_MS: '0' },
    });
    // The stack lays the ledger's stream out first; the gateway's event feed follows it from its start.
    for (const service of ['sessions', 'gateway'] as const) await frozen.stack.startService(service);
    gateway = new GatewayClient(frozen.stack);
    db = await frozen.stack.sql();
    harness = await connectNats(frozen.stack.env.NATS_URL!, 'answer-deadline-spec');
    subscriptions.push(
      harness.subscribe(`${frozen.stack.namespace}.sessions.get.v1`, {
        callback: (_error, msg) => sessionReads.push(msg.headers?.get('x-request-id') ?? ''),
      }),
      harness.subscribe(`${frozen.stack.namespace}.webhooks.endpoints.list.v1`, {
        callback: (_error, msg) => {
          endpointListTimeouts.push(Number(msg.headers?.get(BusHeader.TimeoutMs)));
          msg.respond(JSON.stringify({ ok: true, data: { endpoints: [] } }));
        },
      }),
    );
    await harness.flush();
    merchant = await gateway.createMerchant();
  }, 120_000);

  afterAll(async () => {
    for (const subscription of subscriptions) subscription.unsubscribe();
    await harness?.close();
    await frozen?.stop();
  });

  /** Locks gateway.api_keys until `unlock`: every key lookup, and every key issued, waits for it. */
  const lockKeyTable = async () => {
    const locker = await db.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE gateway.api_keys IN ACCESS EXCLUSIVE MODE');
    let locked = true;
    return {
      unlock: async () => {
        if (!locked) return;
        locked = false;
        await locker.query('ROLLBACK');
        locker.release();
      },
    };
  };

  /** Sends a request while the key table is locked, and lets go of the lock half a second past the deadline: its answer. */
  const sentWhileKeysLockedPastDeadline = async <T>(send: () => Promise<T>): Promise<T> => {
    const lock = await lockKeyTable();
    try {
      const pending = send();
      await sleep(DEADLINE_MS + 500);
      await lock.unlock();
      return await pending;
    } finally {
      await lock.unlock();
    }
  };

  const testKeysOf = async (merchantId: string): Promise<string[]> =>
    (await db.query('SELECT id FROM gateway.api_keys WHERE merchant_id = $1 AND livemode = false ORDER BY created_at', [merchantId])).rows.map((row: { id: string }) => row.id);

  it('given a key lookup that waits on Postgres, then 503 with Retry-After and the request id at the deadline; when the lookup ends later, nothing more is written and no bus call is made', async () => {
    // The control: without the lock the same read reaches the sessions service (404 for an unknown session).
    const control = await gateway.call(`/v1/checkout/sessions/${newSessionId()}`, { token: merchant.keys.test_secret, headers: { 'x-request-id': 'deadline-control' } });
    expect(control.status).toBe(404);
    expect(sessionReads).toContain('deadline-control');

    const connection = await RawHttpConnection.open(frozen.stack.url('gateway'));
    const lock = await lockKeyTable();
    try {
      const started = Date.now();
      connection.send('GET', `/v1/checkout/sessions/${newSessionId()}`, { authorization: `Bearer ${merchant.keys.test_secret}`, 'x-request-id': 'deadline-lookup' });
      const late = await connection.answer(0);
      const waited = Date.now() - started;

      expect(late.status).toBe(503);
      expect(late.body).toBe(SERVICE_UNAVAILABLE);
      expect(late.headers['retry-after']).toBe('1');
      expect(late.headers['x-request-id']).toBe('deadline-lookup');
      expect(late.headers['content-type']).toMatch(/^application\/json/);
      expect(waited).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    } finally {
      await lock.unlock();
    }
    // The lookup ends now, and the handler would read the session: it neither answers again nor calls past the deadline.
    await sleep(1_000);
    expect(connection.statusLines()).toBe(1);
    expect(sessionReads).not.toContain('deadline-lookup');
    // The connection is intact: the next request on it gets its own answer, and only that.
    connection.send('GET', `/v1/checkout/sessions/${newSessionId()}`, { authorization: `Bearer ${merchant.keys.test_secret}`, 'x-request-id': 'deadline-after' });
    expect((await connection.answer(1)).status).toBe(404);
    expect(connection.statusLines()).toBe(2);
    expect(connection.closed).toBe(false);
    connection.close();
  });

  it('given a handler that calls the bus shortly before the deadline, then the call is given only what is left of it, not its own deadline', async () => {
    const lock = await lockKeyTable();
    const started = Date.now();
    let listed;
    try {
      const pending = gateway.call('/v1/webhook_endpoints', { token: merchant.keys.test_secret });
      await sleep(started + DEADLINE_MS - 400 - Date.now());
      await lock.unlock();
      listed = await pending;
    } finally {
      await lock.unlock();
    }
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([]);
    expect(endpointListTimeouts).toHaveLength(1);
    expect(endpointListTimeouts[0]).toBeGreaterThan(0);
    expect(endpointListTimeouts[0]).toBeLessThanOrEqual(400); // its own would be BUS_TIMEOUT_MS
  });

  it('given an admin key issue that waits past the deadline, then it has none: it is answered its key once its change ends, the only copy of the secret not lost to a 503', async () => {
    const owner = await gateway.createMerchant();
    const before = await testKeysOf(owner.merchant_id);
    const issued = await sentWhileKeysLockedPastDeadline(() =>
      gateway.call<{ id: string; key: string }>(`/v1/admin/merchants/${owner.merchant_id}/keys`, {
        token: gateway.adminToken,
        body: { type: 'secret', livemode: false },
        idempotencyKey: `deadline-issue-${randomUUID()}`,
      }),
    );
    expect(issued.status).toBe(201);
    expect(issued.body.key).toMatch(/^pp_\w+_test_\w+$/);
    expect(await testKeysOf(owner.merchant_id)).toEqual([...before, issued.body.id]);
  });

  it('given a request answered at the deadline while Redis was reserving its Idempotency-Key, when the reservation lands later, then the key is freed and a retry runs (201, not 409 "still in progress")', async () => {
    const idempotencyKey = `deadline-reserve-${randomUUID()}`;
    const body = session(`late-${randomUUID()}`);
    const lock = await lockKeyTable();
    const started = Date.now();
    let first;
    try {
      const pending = gateway.call('/v1/checkout/sessions', { token: merchant.keys.test_secret, body, idempotencyKey });
      // Held on the key lookup until a little before the deadline; then the reservation waits on Redis past it, less
      // than Redis's command deadline, so it lands rather than fails.
      const reserveFrom = DEADLINE_MS - REDIS_COMMAND_TIMEOUT_MS / 2 - 200;
      await sleep(started + reserveFrom - Date.now());
      frozen.redis.freeze();
      await lock.unlock();
      first = await pending;
      await sleep(started + DEADLINE_MS + 400 - Date.now());
    } finally {
      frozen.redis.thaw();
      await lock.unlock();
    }
    expect(first.status).toBe(503);
    expect(first.text).toBe(SERVICE_UNAVAILABLE);
    await sleep(300); // the late reservation's answer arrives, and its release is sent

    const retry = await gateway.call('/v1/checkout/sessions', { token: merchant.keys.test_secret, body, idempotencyKey });
    expect(retry.text).not.toContain('still in progress');
    expect(retry.status).toBe(201);
    expect(retry.headers.get('x-cache-lookup')).toBeNull();
  });

  it('given the event stream, then it has no deadline: one whose key lookup waits past it still opens, and is served after it', async () => {
    const abort = new AbortController();
    const response = await sentWhileKeysLockedPastDeadline(() =>
      fetch(`${frozen.stack.url('gateway')}/v1/events/stream`, { headers: { authorization: `Bearer ${merchant.keys.test_secret}` }, signal: abort.signal }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    let text = '';
    let ended = false;
    const reading = (async () => {
      for (;;) {
        const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (done) return void (ended = true);
        text += Buffer.from(value!).toString('utf8');
      }
    })();
    try {
      // Published again until one arrives: the stream's live feed follows a moment after its first answer, and an
      // event published before it (and not in the ledger's log, which a look would read) is not sent.
      const published: string[] = [];
      const arrived = () => published.some((eventId) => text.includes(`id: ${eventId}`));
      for (let tries = 0; tries < 20 && !arrived() && !ended; tries++) {
        published.push(await publishDirectly(merchant.merchant_id));
        for (let waits = 0; waits < 10 && !arrived() && !ended; waits++) await sleep(50);
      }
      expect(arrived()).toBe(true);
      expect(text).not.toContain('Service unavailable');
      expect(ended).toBe(false);
    } finally {
      abort.abort();
      await reading;
    }
  });

  /** Publishes an event onto the ledger's stream as its publisher would (the event stream's live feed reads it). */
  const publishDirectly = (merchantId: string): Promise<string> =>
    publishPaymentConfirmed(harness, frozen.stack.namespace, { merchantId, livemode: false }, `deadline-${randomUUID()}`);
});
