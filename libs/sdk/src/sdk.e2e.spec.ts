import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FlakyProxy, TestStack, waitFor } from '@pp/testing';
import { CheckoutClient } from './client';
import { AuthenticationError, ConflictError, ConnectionError, InvalidRequestError, NotFoundError, PermissionError, ServerError } from './errors';
import type { Event, WebhookEvent } from './types';
import { verify, WebhookVerificationError } from './webhooks/verify-webhook';

/*
 * The SDK against the real stack (gateway, sessions, ledger, refunds,
 * webhooks as processes): every resource, typed errors, idempotent replays,
 * retries through a proxy that fails on purpose, paging, and verification
 * of real webhook deliveries.
 */

interface Keys {
  live_secret: string;
  test_secret: string;
}

/** A local merchant server: records each delivery's raw bytes and headers, answers 200. */
class Receiver {
  readonly deliveries: Array<{ rawBody: Buffer; headers: IncomingHttpHeaders }> = [];
  private constructor(private readonly server: Server) {}

  static async start(): Promise<Receiver> {
    const server = createServer();
    const receiver = new Receiver(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        receiver.deliveries.push({ rawBody: Buffer.concat(chunks), headers: req.headers });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  of(eventId: string) {
    return this.deliveries.filter((delivery) => delivery.headers['x-service-event-id'] === eventId);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const sessionParams = (overrides: Partial<{ amount: number; reference: string; metadata: Record<string, unknown> }> = {}) => ({
  amount: 2500,
  currency: 'cad' as const,
  reference: `order-${randomUUID()}`,
  success_url: 'https://shop.example/ok',
  cancel_url: 'https://shop.example/cancel',
  ...overrides,
});

describe('SDK against the real stack', () => {
  let stack: TestStack;
  let receiver: Receiver;
  let proxy: FlakyProxy;
  let a: Keys;
  let b: Keys;
  let client: CheckoutClient;

  const createMerchant = async (name: string): Promise<Keys> => {
    const response = await fetch(`${stack.url('gateway')}/v1/admin/merchants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.env.ADMIN_TOKEN}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ name, email: `${randomUUID()}@example.com` }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { keys: Keys }).keys;
  };
  const sdk = (apiKey: string, apiBase = stack.url('gateway'), extra: Partial<ConstructorParameters<typeof CheckoutClient>[0]> = {}) =>
    new CheckoutClient({ apiKey, apiBase, retry: { baseDelayMs: 20, maxDelayMs: 200 }, ...extra });
  const confirmedPayment = async (overrides: Parameters<typeof sessionParams>[0] = {}) => {
    const session = await client.checkoutSessions.create(sessionParams(overrides));
    return client.sandbox.simulatePayment({ sessionId: session.id, outcome: 'confirmed' });
  };

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['gateway', 'ledger'],
      label: 'sdk',
      env: { RATE_LIMIT_TEST_PER_SECOND: '5000', RATE_LIMIT_LIVE_PER_SECOND: '5000', WEBHOOK_RETRY_SCHEDULE: '0,0.2,0.2' },
    });
    // One at a time: five services booting at once on a shared 2-core machine can miss their readiness deadline.
    for (const service of ['sessions', 'refunds', 'webhooks'] as const) await stack.startService(service);
    [a, b] = await Promise.all([createMerchant('A'), createMerchant('B')]);
    client = sdk(a.test_secret);
    receiver = await Receiver.start();
    proxy = await FlakyProxy.start(stack.url('gateway'));
   }, 180_000); // booting the services one after another on a busy machine

  afterAll(async () => {
    await receiver?.close();
    await proxy?.close();
    await stack?.stop();
  });

  it('creates and retrieves checkout sessions; another merchant gets NotFoundError with the request id', async () => {
    const params = sessionParams({ metadata: { cart: '42' } });
    const created = await client.checkoutSessions.create(params);
    expect(created).toMatchObject({ id: expect.any(String), status: 'PENDING', livemode: false, reference: params.reference });
    const session = await client.checkoutSessions.retrieve(created.id);
    expect(session).toMatchObject({ id: created.id, amount: 2500, currency: 'CAD', metadata: { cart: '42' } });

    const missing = await sdk(b.test_secret).checkoutSessions.retrieve(created.id, { requestId: 'sdk-spec-404' }).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, requestId: 'sdk-spec-404' });
  });

  it('types every error by status: 400, 401, 403', async () => {
    const invalid = await client.checkoutSessions.create({ ...sessionParams(), amount: -1 }).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(InvalidRequestError);
    expect((invalid as InvalidRequestError).message).toMatch(/^Validation failed.*amount/);
    expect((invalid as InvalidRequestError).requestId).toEqual(expect.any(String));

    const unauthenticated = await sdk('pp_live_test_not_a_key').payments.list().firstPage().catch((error: unknown) => error);
    expect(unauthenticated).toBeInstanceOf(AuthenticationError);

    const liveSimulate = await sdk(a.live_secret).sandbox.simulatePayment({ reference: 'x', outcome: 'confirmed' }).catch((error: unknown) => error);
    expect(liveSimulate).toBeInstanceOf(PermissionError);
    expect((liveSimulate as PermissionError).message).toMatch(/test key/);
  });

  it('replays a POST sent again with the same Idempotency-Key: the same session, even when sent concurrently', async () => {
    const params = sessionParams();
    const idempotencyKey = randomUUID();
    const [first, second] = await Promise.all([
      client.checkoutSessions.create(params, { idempotencyKey }),
      client.checkoutSessions.create(params, { idempotencyKey }),
    ]);
    const third = await client.checkoutSessions.create(params, { idempotencyKey });
    expect(second.id).toBe(first.id);
    expect(third.id).toBe(first.id);
    const other = await client.checkoutSessions.create(sessionParams());
    expect(other.id).not.toBe(first.id);
  });

  it('retries through a failing proxy with one Idempotency-Key: a lost answer is replayed, never created twice', async () => {
    const flaky = sdk(a.test_secret, proxy.url, { maxRetries: 4 });
    proxy.failNext('drop', { status: 503, retryAfter: '0' }, 'lose-answer', { status: 429, retryAfter: '0' });
    const session = await flaky.checkoutSessions.create(sessionParams());

    expect(proxy.requests.map((request) => request.step)).toEqual(['drop', { status: 503, retryAfter: '0' }, 'lose-answer', { status: 429, retryAfter: '0' }, 'pass']);
    const keys = new Set(proxy.requests.map((request) => request.headers['idempotency-key']));
    expect(keys.size).toBe(1);
    const [lost, replayed] = proxy.requests.filter((request) => request.upstreamStatus !== undefined);
    expect(lost.upstreamStatus).toBe(201);
    expect(replayed.upstreamStatus).toBe(200);
    expect(JSON.parse(lost.upstreamBody!).id).toBe(session.id);
  });

  it('gives up after maxRetries with a typed error, and does not retry what would fail again', async () => {
    const flaky = sdk(a.test_secret, proxy.url, { maxRetries: 2 });
    proxy.failNext({ status: 503 }, { status: 503 }, { status: 503 });
    await expect(flaky.checkoutSessions.create(sessionParams())).rejects.toBeInstanceOf(ServerError);
    expect(proxy.requests).toHaveLength(3);

    proxy.failNext('drop', 'drop', 'drop');
    await expect(flaky.payments.list().firstPage()).rejects.toBeInstanceOf(ConnectionError);
    expect(proxy.requests).toHaveLength(3);

    proxy.failNext({ status: 409 });
    await expect(flaky.checkoutSessions.create(sessionParams())).rejects.toBeInstanceOf(ConflictError);
    expect(proxy.requests).toHaveLength(1);
  });

  it('answers a DELETE whose answer was lost as deleted: the retry finds the endpoint gone', async () => {
    const endpoint = await client.webhookEndpoints.create({ url: receiver.url });
    proxy.failNext('lose-answer');
    await expect(sdk(a.test_secret, proxy.url).webhookEndpoints.delete(endpoint.id)).resolves.toEqual({ id: endpoint.id, deleted: true });
    expect(proxy.requests.map((request) => [request.method, request.upstreamStatus])).toEqual([
      ['DELETE', 200],
      ['DELETE', 404],
    ]);
  });

  it('gives each attempt a deadline: no answer in time is a ConnectionError that says so', async () => {
    const session = await client.checkoutSessions.create(sessionParams());
    const late = await client.checkoutSessions.retrieve(session.id, { timeoutMs: 1, maxRetries: 1 }).catch((error: unknown) => error);
    expect(late).toBeInstanceOf(ConnectionError);
    expect((late as ConnectionError).message).toMatch(/no answer within 1 ms \(request [0-9a-f-]{36}\)/);
  });

  it('pages through 120 payments, newest first, with starting_after', async () => {
    const pager = sdk((await createMerchant('Pager')).test_secret);
    const created: string[] = [];
    for (let batch = 0; batch < 12; batch++) {
      const results = await Promise.all(
        Array.from({ length: 10 }, async () => {
          const session = await pager.checkoutSessions.create(sessionParams());
          return pager.sandbox.simulatePayment({ sessionId: session.id, outcome: 'confirmed' });
        }),
      );
      created.push(...results.map((result) => result.transaction.id));
    }
    const listed: string[] = [];
    for await (const payment of pager.payments.list({ limit: 50 })) listed.push(payment.id);
    expect(listed).toHaveLength(120);
    expect(new Set(listed)).toEqual(new Set(created));

    const firstPage = await pager.payments.list({ limit: 50 }).firstPage();
    expect(firstPage).toMatchObject({ hasMore: true });
    expect(firstPage.data.map((payment) => payment.id)).toEqual(listed.slice(0, 50));
    const rest = await pager.payments.list({ limit: 50, starting_after: listed[99] }).toArray();
    expect(rest.map((payment) => payment.id)).toEqual(listed.slice(100));
    const confirmed = await pager.payments.list({ status: 'CONFIRMED', limit: 7 }).toArray(20);
    expect(confirmed).toHaveLength(20);
  });

  it('manages webhook endpoints, and verifies real deliveries while refusing tampered ones', async () => {
    const endpoint = await client.webhookEndpoints.create({ url: receiver.url, enabled_events: ['payment.confirmed', 'payment.refunded'] });
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect((await client.webhookEndpoints.list()).map((listed) => listed.id)).toContain(endpoint.id);

    const { transaction } = await confirmedPayment({ amount: 4200 });
    const events = await waitFor('payment.confirmed in the event list', async () =>
      (await client.events.list({ type: 'payment.confirmed' }).toArray(50)).find((event) => event.data.payment_id === transaction.id),
    );
    const [delivery] = await waitFor('the delivery', () => receiver.of(events.id).length > 0 && receiver.of(events.id));

    const event: WebhookEvent = verify(delivery.rawBody, delivery.headers, endpoint.secret);
    expect(event).toMatchObject({ id: events.id, type: 'payment.confirmed', livemode: false, data: { payment_id: transaction.id, amount: 4200 } });

    const tampered = Buffer.from(delivery.rawBody.toString().replace('4200', '4201'));
    expect(() => verify(tampered, delivery.headers, endpoint.secret)).toThrow(WebhookVerificationError);
    expect(() => verify(delivery.rawBody, delivery.headers, 'whsec_someone_else')).toThrow(/matches none/);
    expect(() => verify(delivery.rawBody, delivery.headers, endpoint.secret, { nowSeconds: Math.floor(Date.now() / 1000) + 3600 })).toThrow(/tolerance/);
    expect(() => verify(JSON.parse(delivery.rawBody.toString()), delivery.headers, endpoint.secret)).toThrow(/raw request body/);

    // The receiver sees the POST before the webhooks service records its answer: wait for the record.
    const detail = await waitFor('the delivery recorded as SUCCESS', async () => {
      const retrieved = await client.events.retrieve(events.id);
      return retrieved.deliveries.some((attempt) => attempt.delivery_status === 'SUCCESS') && retrieved;
    });
    expect(detail.deliveries).toEqual(expect.arrayContaining([expect.objectContaining({ webhook_id: endpoint.id, delivery_status: 'SUCCESS' })]));
    await expect(client.events.resend(events.id)).resolves.toEqual({ event_id: events.id, webhook_ids: [endpoint.id] });
    await waitFor('the resent delivery', () => receiver.of(events.id).length === 2);

    // Rotation: the next delivery verifies with the old secret alone and with the new one alone.
    const rotated = await client.webhookEndpoints.rotateSecret(endpoint.id);
    expect(rotated.secret).not.toBe(endpoint.secret);
    await expect(client.events.resend(events.id)).resolves.toMatchObject({ webhook_ids: [endpoint.id] });
    const [, , third] = await waitFor('the delivery after the rotation', () => receiver.of(events.id).length === 3 && receiver.of(events.id));
    expect(verify(third.rawBody, third.headers, endpoint.secret).id).toBe(events.id);
    expect(verify(third.rawBody, third.headers, rotated.secret).id).toBe(events.id);

    // A leaked secret: rotated with no overlap, the next delivery verifies with the new secret only.
    const replaced = await client.webhookEndpoints.rotateSecret(endpoint.id, { previous_secret_expires_in: 0 });
    expect(replaced.previous_secret_expires_at).not.toBeNull();
    expect(Date.parse(replaced.previous_secret_expires_at!)).toBeLessThanOrEqual(Date.now());
    await expect(client.events.resend(events.id)).resolves.toMatchObject({ webhook_ids: [endpoint.id] });
    const [, , , fourth] = await waitFor('the delivery after the rotation with no overlap', () => receiver.of(events.id).length === 4 && receiver.of(events.id));
    expect(verify(fourth.rawBody, fourth.headers, replaced.secret).id).toBe(events.id);
    expect(() => verify(fourth.rawBody, fourth.headers, rotated.secret)).toThrow();

    // A resend whose answer was lost: retried with its Idempotency-Key, answered again, and delivered once.
    proxy.failNext('lose-answer');
    await expect(sdk(a.test_secret, proxy.url).events.resend(events.id)).resolves.toMatchObject({ webhook_ids: [endpoint.id] });
    expect(proxy.requests.map((request) => [request.method, request.upstreamStatus])).toEqual([
      ['POST', 200],
      ['POST', 200],
    ]);
    expect(new Set(proxy.requests.map((request) => request.headers['idempotency-key'])).size).toBe(1);
    await waitFor('the delivery of the resend whose answer was lost', () => receiver.of(events.id).length >= 5);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(receiver.of(events.id)).toHaveLength(5);
    const tooLong = client.webhookEndpoints.rotateSecret(endpoint.id, { previous_secret_expires_in: 86_401 });
    await expect(tooLong).rejects.toMatchObject({ status: 400 });
    await expect(tooLong).rejects.toThrow('Validation failed: previous_secret_expires_in must be between 0 and 86400');

    await expect(client.webhookEndpoints.disable(endpoint.id)).resolves.toMatchObject({ id: endpoint.id, status: 'disabled' });
    await expect(client.webhookEndpoints.enable(endpoint.id)).resolves.toMatchObject({ id: endpoint.id, status: 'enabled', disabled_reason: null });
    await expect(client.webhookEndpoints.delete(endpoint.id)).resolves.toEqual({ id: endpoint.id, deleted: true });
    await expect(client.webhookEndpoints.delete(endpoint.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('streams new events as Server-Sent Events and resumes after Last-Event-ID (events just before it may come again)', async () => {
    await confirmedPayment();
    const [latest] = await waitFor('an event to start after', () => client.events.list({ limit: 1 }).toArray(1).then((events) => events.length > 0 && events));
    // What a client following the stream would have seen so far.
    const seen = new Set<string>((await client.events.list({ limit: 50 }).toArray(200)).map((event) => event.id));
    /** Reads a stream until `wanted` arrives, skipping what was seen before (resends around the resume point). */
    const readUntil = async (stream: AsyncGenerator<Event>, wanted: string) => {
      const fresh: Event[] = [];
      for await (const event of stream) {
        if (seen.has(event.id)) continue;
        seen.add(event.id);
        fresh.push(event);
        if (event.data.payment_id === wanted) break;
      }
      return fresh.map((event) => event.data.payment_id);
    };

    const stream = client.events.stream({ lastEventId: latest.id, types: ['payment.confirmed'] });
    const first = await confirmedPayment();
    const second = await confirmedPayment();
    expect(await readUntil(stream, second.transaction.id)).toEqual([first.transaction.id, second.transaction.id]);

    // A new connection after the last id received: nothing is missed while disconnected.
    const lastId = [...seen].at(-1)!;
    const third = await confirmedPayment();
    expect(await readUntil(client.events.stream({ lastEventId: lastId, types: ['payment.confirmed'] }), third.transaction.id)).toEqual([third.transaction.id]);

    await expect(client.events.stream({ lastEventId: 'evt_doesnotexist00' }).next()).rejects.toBeInstanceOf(NotFoundError);
    await expect(sdk(b.test_secret).events.stream({ lastEventId: lastId }).next()).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refunds a payment (test mode completes at once), lists and retrieves refunds, and refuses cancelling a completed one', async () => {
    const { transaction } = await confirmedPayment();
    const refund = await client.refunds.create({ payment_id: transaction.id, reason: 'customer asked' });
    expect(refund).toMatchObject({ id: expect.stringMatching(/^rf_/), payment_id: transaction.id, amount: 2500, status: 'COMPLETED', livemode: false });
    await expect(client.refunds.retrieve(refund.id)).resolves.toMatchObject({ id: refund.id });
    const listed = await client.refunds.list({ payment_id: transaction.id }).toArray();
    expect(listed.map((entry) => entry.id)).toEqual([refund.id]);
    const cancel = await client.refunds.cancel(refund.id).catch((error: unknown) => error);
    expect(cancel).toBeInstanceOf(ConflictError);
    await expect(sdk(b.test_secret).refunds.retrieve(refund.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('simulates each outcome by session id or by reference', async () => {
    const byReference = await client.checkoutSessions.create(sessionParams());
    const failed = await client.sandbox.simulatePayment({ reference: byReference.reference, outcome: 'failed' });
    expect(failed.transaction.status).toBe('FAILED');
    const review = await client.checkoutSessions.create(sessionParams());
    const pending = await client.sandbox.simulatePayment({ sessionId: review.id, outcome: 'requires_manual_review' });
    expect(pending.transaction.status).toBe('REQUIRES_MANUAL_REVIEW');
    const expired = await client.sandbox.expireSession({ sessionId: review.id });
    expect(expired).toMatchObject({ id: review.id, status: 'EXPIRED' });
    await waitFor('checkout.session.expired', async () =>
      (await client.events.list({ type: 'checkout.session.expired' }).toArray(50)).some((event) => event.data.session_id === review.id),
    );
    await expect(sdk(a.live_secret).sandbox.expireSession({ sessionId: review.id })).rejects.toBeInstanceOf(PermissionError);
  });
});
