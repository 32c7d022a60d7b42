import type { MerchantEventDetailView, MerchantEventView } from '@pp/contracts';
import { newId } from '@pp/kernel';
import { connectNats } from '@pp/platform';
import { TestStack, testInfra } from '@pp/testing';
import type { Msg, NatsConnection } from 'nats';
import type { ProvisionedMerchantView } from '../identity/identity.views';
import { deliveryAttempt } from '../testing/delivery-attempt.fixture';
import { GatewayClient } from '../testing/gateway-client';

/*
 * GET /v1/events/:id shows an event's delivery attempts to any key holding
 * events.read, but the endpoint URL whole only to a key that manages
 * endpoints (webhooks.write): a URL's path or query may carry the merchant's
 * token. Stand-ins for the ledger and the webhooks service answer on the bus.
 */
describe('the delivery URLs of GET /v1/events/:id', () => {
  const eventId = newId('event');
  const endpointUrl = 'https://hooks.shop.example:8443/in/tok_abc?token=sekret';
  let stack: TestStack;
  let gateway: GatewayClient;
  let merchant: ProvisionedMerchantView;
  let nc: NatsConnection;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway'], label: 'eventdeliveries' });
    gateway = new GatewayClient(stack);
    merchant = await gateway.createMerchant();
    nc = await connectNats(testInfra.natsUrl, 'event-deliveries-spec');
    const event: MerchantEventView = { id: eventId, type: 'payment.confirmed', livemode: true, data: { reference: 'order-1' }, created_at: '2030-01-01T00:00:00.000Z' };
    const delivery = deliveryAttempt(endpointUrl, '2030-01-01T00:00:01.000Z');
    const answer = (subject: string, data: unknown) =>
      nc.subscribe(`${stack.namespace}.${subject}`, { callback: (_error, msg: Msg) => msg.respond(Buffer.from(JSON.stringify({ ok: true, data }))) });
    answer('ledger.merchant-events.get.v1', event);
    answer('webhooks.deliveries.list.v1', { deliveries: [delivery] });
    await nc.flush();
  });
  afterAll(async () => {
    await nc?.close();
    await stack?.stop();
  });

  const deliveryUrlsFor = async (token: string): Promise<string[]> => {
    const result = await gateway.call<MerchantEventDetailView>(`/v1/events/${eventId}`, { token });
    expect(result.status).toBe(200);
    return result.body.deliveries.map((delivery) => delivery.url);
  };

  it('given a key holding webhooks.write, then the URL is shown whole', async () => {
    expect(await deliveryUrlsFor(merchant.keys.live_secret)).toEqual([endpointUrl]);
  });

  it('given a restricted key with events.read only, then only the URL’s origin is shown', async () => {
    const eventsOnly = await gateway.issueKey(merchant.merchant_id, { type: 'restricted', livemode: true, scopes: ['events.read'] });
    expect(await deliveryUrlsFor(eventsOnly.key)).toEqual(['https://hooks.shop.example:8443']);
  });
});
