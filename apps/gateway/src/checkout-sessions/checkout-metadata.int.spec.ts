import { randomUUID } from 'node:crypto';
import {
  type CheckoutSessionCreatedView,
  type CheckoutSessionView,
  MAX_METADATA_BYTES,
  MAX_METADATA_KEY_CHARACTERS,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_CHARACTERS,
  type SimulatePaymentReply,
  type WebhookEndpointWithSecretView,
} from '@pp/contracts';
import { startTogether, TestStack, waitFor, WebhookReceiver } from '@pp/testing';
import type { ProvisionedMerchantView } from '../identity/identity.views';
import { GatewayClient } from '../testing/gateway-client';

/*
 * Metadata limits at the edge (docs/ARCHITECTURE.md, checkout sessions): a
 * refusal names its rule, and a session at the largest accepted size still
 * goes through simulate-payment, the ledger's publication and a webhook.
 */

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** The worst accepted case: 50 keys of 40 characters, values filled up to exactly 8 KB of JSON. */
function largestMetadata(): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (let i = 0; i < MAX_METADATA_KEYS; i += 1) metadata[`${String(i).padStart(2, '0')}`.padEnd(MAX_METADATA_KEY_CHARACTERS, 'k')] = '';
  for (const key of Object.keys(metadata)) {
    metadata[key] = 'v'.repeat(Math.min(MAX_METADATA_VALUE_CHARACTERS, MAX_METADATA_BYTES - jsonBytes(metadata)));
  }
  return metadata;
}

describe('checkout session metadata limits', () => {
  let stack: TestStack;
  let gateway: GatewayClient;
  let receiver: WebhookReceiver;
  let merchant: ProvisionedMerchantView;

  beforeAll(async () => {
    [stack, receiver] = await startTogether([
      TestStack.start({
        services: ['gateway', 'sessions', 'ledger', 'webhooks'],
        label: 'metadata',
        env: { RATE_LIMIT_TEST_PER_SECOND: '1000', WEBHOOK_RETRY_SCHEDULE: '0,0.2,0.2' },
      }),
      WebhookReceiver.start(),
    ]);
    gateway = new GatewayClient(stack);
    merchant = await gateway.createMerchant('Metadata Merchant');
  });
  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  const create = (metadata: unknown) =>
    gateway.call<CheckoutSessionCreatedView>('/v1/checkout/sessions', {
      token: merchant.keys.test_secret,
      body: { amount: 2500, currency: 'cad', reference: `order-${randomUUID()}`, success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/no', metadata },
    });

  it.each([
    ['51 keys', Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])), 'metadata must have at most 50 keys'],
    ['a 41-character key', { ['k'.repeat(41)]: 'v' }, 'metadata keys must be at most 40 characters'],
    ['a 501-character value', { note: 'x'.repeat(501) }, 'metadata values must be at most 500 characters'],
    ['more than 8 KB in total', Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'x'.repeat(500)])), 'metadata must be at most 8192 bytes (8 KB) as JSON'],
    ['a 400 KB value (the report)', { blob: 'x'.repeat(400_000) }, 'metadata must be at most 8192 bytes (8 KB) as JSON; metadata values must be at most 500 characters'],
    ['a string instead of an object', 'x', 'metadata must be an object of key-value pairs'],
    ['a number past 2^53 (rounded by JSON.parse)', { order: 2 ** 64 }, 'metadata numbers must be finite and at most 2^53 - 1 either way (send larger ones as strings)'],
    ['a key objects reserve, which the validation pipe would drop', { prototype: 'v2', order: '1' }, 'body.metadata must not contain the key prototype, a name objects reserve'],
  ])('refuses %s with 400 naming the rule', async (_case, metadata, rule) => {
    const result = await create(metadata);
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ error: `Validation failed: ${rule}` });
  });

  it('refuses a number JSON cannot keep as written (1e400 parses to Infinity, which would be stored as null)', async () => {
    const body = JSON.stringify({ amount: 2500, currency: 'cad', reference: `order-${randomUUID()}`, success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/no', metadata: { n: 0 } });
    const result = await gateway.call('/v1/checkout/sessions', { token: merchant.keys.test_secret, body: body.replace('"n":0', '"n":1e400') });
    expect({ status: result.status, body: result.body }).toEqual({
      status: 400,
      body: { error: 'Validation failed: metadata numbers must be finite and at most 2^53 - 1 either way (send larger ones as strings)' },
    });
  });

  it('accepts metadata at every limit at once; simulate-payment answers 200 and the webhook carries it whole', async () => {
    const endpoint = await gateway.call<WebhookEndpointWithSecretView>('/v1/webhook_endpoints', {
      token: merchant.keys.test_secret,
      body: { url: receiver.url('/metadata'), enabled_events: ['payment.confirmed'] },
    });
    expect(endpoint.status).toBe(201);
    receiver.trust('/metadata', endpoint.body.secret);

    const metadata = largestMetadata();
    expect([Object.keys(metadata).length, jsonBytes(metadata)]).toEqual([MAX_METADATA_KEYS, MAX_METADATA_BYTES]);
    const session = await create(metadata);
    expect(session.status).toBe(201);
    expect((await gateway.call<CheckoutSessionView>(`/v1/checkout/sessions/${session.body.id}`, { token: merchant.keys.test_secret })).body.metadata).toEqual(metadata);

    const simulated = await gateway.call<SimulatePaymentReply>('/v1/sandbox/simulate-payment', { token: merchant.keys.test_secret, body: { sessionId: session.body.id, outcome: 'confirmed' } });
    expect(simulated.status).toBe(200);
    expect(simulated.body.transaction.status).toBe('CONFIRMED');

    const [delivery] = await waitFor('the payment.confirmed webhook', () => receiver.received('/metadata').length > 0 && receiver.received('/metadata'), { timeoutMs: 20_000 });
    expect(delivery.verification.valid).toBe(true);
    const body = JSON.parse(delivery.rawBody.toString('utf8'));
    expect(body).toMatchObject({ type: 'payment.confirmed', data: { session_id: session.body.id, metadata } });
  });
});
