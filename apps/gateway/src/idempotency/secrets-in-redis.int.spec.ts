import { createHash, randomUUID } from 'node:crypto';
import { TestStack, testInfra, waitFor, WebhookReceiver } from '@pp/testing';
import type { CheckoutSessionCreatedView, WebhookEndpointWithSecretView } from '@pp/contracts';
import Redis, { type ChainableCommander } from 'ioredis';
import type { ProvisionedMerchantView } from '../identity/identity.views';
import { type CallOptions, type CallResult, GatewayClient } from '../testing/gateway-client';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
/** Where the payer's request comes from (X-Forwarded-For, believed from loopback). */
const PAYER_ADDRESS = '198.51.100.73';

/**
 * An outsider who dumps Redis (issue 13 §4): after merchants, keys, webhook
 * endpoints, a secret rotation and a paid session went through the gateway,
 * nothing in the stack's keys or values reveals a secret that was handed out,
 * the credentials that were used, or a plain hash of either, nor the address
 * of a payer whose embedded checkout spent its client budget. Replays still
 * work for whoever holds the Idempotency-Key in the same scope.
 */
describe('no secret in Redis (idempotency cache, rate limits, queues)', () => {
  let stack: TestStack;
  let gateway: GatewayClient;
  let receiver: WebhookReceiver;
  let redis: Redis;
  let merchantA: ProvisionedMerchantView;
  let merchantB: ProvisionedMerchantView;
  /** Every POST that succeeded, to replay it. */
  const posts: Array<{ path: string; options: CallOptions & { idempotencyKey: string }; first: CallResult }> = [];
  /** Every secret handed out or used. */
  const secrets = new Set<string>();
  /** The paid session, opened again by a payer on the client route from PAYER_ADDRESS. */
  let session: CheckoutSessionCreatedView;

  const post = async <T>(path: string, token: string, body: unknown): Promise<CallResult<T>> => {
    const options = { token, body, idempotencyKey: randomUUID() };
    const first = await gateway.call<T>(path, options);
    if (first.status !== 200 && first.status !== 201) throw new Error(`POST ${path} answered ${first.status}: ${first.text}`);
    posts.push({ path, options, first });
    secrets.add(options.idempotencyKey);
    return first;
  };

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway', 'sessions', 'ledger', 'webhooks'], label: 'redissecrets', env: { WEBHOOK_RETRY_SCHEDULE: '0,0.2' } });
    gateway = new GatewayClient(stack);
    receiver = await WebhookReceiver.start();
    redis = new Redis(testInfra.redisUrl);
    for (const name of ['ADMIN_TOKEN', 'INGEST_TOKEN', 'SERVER_SECRET'] as const) secrets.add(stack.env[name]!);

    const chosenPassword = `chosen-${randomUUID()}`;
    secrets.add(chosenPassword);
    merchantA = (await post<ProvisionedMerchantView>('/v1/admin/merchants', gateway.adminToken, { name: 'A', email: `${randomUUID()}@example.com`, password: chosenPassword })).body;
    merchantB = (await post<ProvisionedMerchantView>('/v1/admin/merchants', gateway.adminToken, { name: 'B', email: `${randomUUID()}@example.com` })).body;
    for (const merchant of [merchantA, merchantB]) {
      for (const key of Object.values(merchant.keys)) secrets.add(key);
      if (merchant.dashboard_user.password) secrets.add(merchant.dashboard_user.password);
    }
    expect(merchantB.dashboard_user.password).toEqual(expect.any(String));
    for (const spec of [{ type: 'secret', livemode: true }, { type: 'restricted', livemode: true, scopes: ['payments.read'] }, { type: 'secret', livemode: false }]) {
      secrets.add((await post<{ key: string }>(`/v1/admin/merchants/${merchantA.merchant_id}/keys`, gateway.adminToken, spec)).body.key);
    }

    const testKey = merchantA.keys.test_secret;
    const endpoint = (await post<WebhookEndpointWithSecretView>('/v1/webhook_endpoints', testKey, { url: receiver.url('/hooks') })).body;
    const rotated = (await post<WebhookEndpointWithSecretView>(`/v1/webhook_endpoints/${endpoint.id}/rotate_secret`, testKey, {})).body;
    for (const secret of [endpoint.secret, rotated.secret]) {
      secrets.add(secret);
      receiver.trust('/hooks', secret);
    }
    // First attempts start without the queue; failing them sends the retries through BullMQ.
    receiver.script('/hooks', [{ status: 503 }, { status: 503 }]);

    session = (
      await post<CheckoutSessionCreatedView>('/v1/checkout/sessions', testKey, {
        amount: 2500,
        currency: 'cad',
        reference: `order-${randomUUID()}`,
        success_url: 'https://shop.example/ok',
        cancel_url: 'https://shop.example/cancel',
      })
    ).body;
    secrets.add(session.client_secret);
    await post('/v1/sandbox/simulate-payment', testKey, { sessionId: session.id, outcome: 'confirmed' });
    // The retries went through BullMQ: its job data is part of what is dumped below.
    await waitFor('the payment webhooks to arrive, verified', () => receiver.received('/hooks').filter((r) => r.verification.valid && r.answeredStatus === 200).length >= 2, {
      timeoutMs: 20_000,
    });
  });

  afterAll(async () => {
    redis?.disconnect();
    await receiver?.close();
    await stack?.stop();
  });

  /**
   * Every key of the stack's namespace with its value, whatever its type. The
   * keys are listed first and read afterwards in two pipelines, so the whole
   * dump takes a few round trips however many keys the shared Redis holds:
   * the rate-limit counters it must find live one second.
   */
  async function dumpNamespace(): Promise<Map<string, string>> {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${stack.namespace}*`, 'COUNT', 10_000);
      cursor = next;
      keys.push(...found);
    } while (cursor !== '0');
    const types = await inPipeline(keys.map((key) => (pipeline) => pipeline.type(key)));
    const values = await inPipeline(keys.map((key, i) => (pipeline) => read(pipeline, key, types[i] as string)));
    return new Map(keys.map((key, i) => [key, typeof values[i] === 'string' ? (values[i] as string) : JSON.stringify(values[i])]));
  }

  async function inPipeline(commands: Array<(pipeline: ChainableCommander) => unknown>): Promise<unknown[]> {
    const pipeline = redis.pipeline();
    for (const command of commands) command(pipeline);
    const results = (await pipeline.exec()) ?? [];
    return results.map(([error, value]) => {
      if (error) throw error;
      return value;
    });
  }

  function read(pipeline: ChainableCommander, key: string, type: string): unknown {
    switch (type) {
      case 'string':
        return pipeline.get(key);
      case 'hash':
        return pipeline.hgetall(key);
      case 'list':
        return pipeline.lrange(key, 0, -1);
      case 'set':
        return pipeline.smembers(key);
      case 'zset':
        return pipeline.zrange(key, 0, -1, 'WITHSCORES');
      case 'stream':
        return pipeline.xrange(key, '-', '+');
      case 'none':
        return pipeline.echo(''); // expired between SCAN and the read
      default:
        throw new Error(`unexpected Redis type ${type} at ${key}`);
    }
  }

  it('holds none of the handed-out secrets, the credentials used, or a plain SHA-256 of them, nor a payer’s address, in any key or value', async () => {
    // A rate-limit counter lives one second from the first request that counts in it, later ones do not extend it, so
    // a request just before the dump may land in a counter about to expire (or the machine may stall past the second):
    // request and dump again until the dump holds a live counter of each kind.
    const ratelimitKey = new RegExp(`^${stack.namespace}:gateway:ratelimit`);
    const addressBudgetKey = new RegExp(`^${stack.namespace}:gateway:client-budget:address:`);
    const dump = await waitFor(
      'a dump that holds a rate-limit counter and a client address budget',
      async () => {
        expect((await gateway.call('/v1/payments', { method: 'GET', token: merchantA.keys.test_secret })).status).toBe(200);
        const opened = await gateway.call('/v1/client/checkout_session', {
          token: merchantA.keys.test_publishable,
          headers: { 'x-client-secret': session.client_secret, 'x-forwarded-for': PAYER_ADDRESS },
        });
        expect(opened.status).toBe(200);
        const found = await dumpNamespace();
        const keys = [...found.keys()];
        return keys.some((key) => ratelimitKey.test(key)) && keys.some((key) => addressBudgetKey.test(key)) && found;
      },
      { timeoutMs: 15_000, intervalMs: 200 },
    );
    const keys = [...dump.keys()];
    // The dump covers what matters: one cached response per POST, the rate-limit counters and BullMQ's jobs.
    expect(keys.filter((key) => key.startsWith(`${stack.namespace}:gateway:idem:`)).length).toBe(posts.length);
    expect(keys).toContainEqual(expect.stringMatching(new RegExp(`^${stack.namespace}:gateway:ratelimit`)));
    expect(keys.filter((key) => key.startsWith(`${stack.namespace}:bull:webhook-delivery:`)).map((key) => dump.get(key))).toContainEqual(
      expect.stringContaining('delivery_id'),
    );
    expect(keys).toContainEqual(expect.stringMatching(new RegExp(`^${stack.namespace}:bull:session-expiry:`)));

    const everything = [...dump].map(([key, value]) => `${key}\n${value}`).join('\n');
    const leaks: string[] = [];
    for (const secret of secrets) {
      const digest = sha256(secret);
      const needles = [secret, digest, digest.slice(0, 16)];
      if (secret.startsWith('whsec_')) needles.push(secret.slice('whsec_'.length));
      for (const needle of needles) if (everything.includes(needle)) leaks.push(`${secret.slice(0, 12)}… as ${needle === secret ? 'itself' : needle === digest ? 'sha256' : needle.length === 16 ? 'sha256 prefix' : 'its random part'}`);
    }
    expect(leaks).toEqual([]);
    // Also no response body in the clear: the merchant ids and the key prefixes appear in every create answer.
    expect(everything).not.toContain(merchantA.merchant_id);
    expect(everything).not.toMatch(/pp_live_|pp_pub_|whsec_/);
    // A payer's address names their client budget only through an HMAC, so a dump (or a Redis span) does not show it.
    expect(everything).not.toContain(PAYER_ADDRESS);
  });

  it('replays every POST with the original body and X-Cache-Lookup: HIT', async () => {
    for (const { path, options, first } of posts) {
      const replay = await gateway.call(path, options);
      expect({ path, status: replay.status, cache: replay.headers.get('x-cache-lookup') }).toEqual({ path, status: 200, cache: 'HIT' });
      expect(replay.text).toBe(first.text);
    }
  });

  it('does not replay for the same Idempotency-Key and body in another merchant’s scope', async () => {
    const original = posts.find((p) => p.path === '/v1/webhook_endpoints')!;
    const originalBody = original.first.body as WebhookEndpointWithSecretView;
    const asOther = await gateway.call<WebhookEndpointWithSecretView>(original.path, { ...original.options, token: merchantB.keys.test_secret });
    expect(asOther.status).toBe(201);
    expect(asOther.headers.get('x-cache-lookup')).toBeNull();
    expect(asOther.body.id).not.toBe(originalBody.id);
    expect(asOther.body.secret).not.toBe(originalBody.secret);
  });
});
