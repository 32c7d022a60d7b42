import { MerchantEventType } from '@pp/contracts';
import { waitFor } from '@pp/testing';
import { startWebhooksTestBed, type WebhooksTestBed } from '../testing/webhooks-test-bed';

const PLACES = 4;
const ENDPOINTS = 3 * PLACES;

/*
 * WEBHOOK_DELIVERY_CONCURRENCY bounds a replica's attempts in flight, those
 * made at once at intake and those its queue's worker makes alike (one
 * AttemptPlaces): the delivery agent is sized by it, and an attempt past it
 * would wait for a connection while its timeout runs. Each endpoint gets one
 * delivery here, so no endpoint turns slow and the slow-endpoint gate holds
 * nothing back.
 */
describe('webhooks: attempts in flight, made at once and from the queue', () => {
  let bed: WebhooksTestBed;

  beforeAll(async () => {
    bed = await startWebhooksTestBed('whinflight', { WEBHOOK_DELIVERY_CONCURRENCY: String(PLACES), WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  });
  afterAll(() => bed?.close());

  it('given an event for more endpoints than places, when every answer is held, then no more attempts are in flight than places, and every one is made once they answer', async () => {
    const { bus, ledger, receiver } = bed;
    const merchant = `mer_inflight${Date.now()}`;
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const paths = Array.from({ length: ENDPOINTS }, (_, i) => `/inflight-${i}`);
    for (const path of paths) {
      const created = await bus.request('webhooks.endpoints.create.v1', { merchant_id: merchant, livemode: false, url: receiver.url(path) });
      receiver.trust(path, created.secret);
      receiver.script(path, [{ until: held }]);
    }
    const inFlight = () => paths.reduce((sum, path) => sum + receiver.received(path).length, 0);

    const event = ledger.event(merchant, MerchantEventType.PaymentConfirmed);
    await ledger.publish(event);
    await waitFor('the first attempts to take every place', () => inFlight() >= PLACES);
    // The rest are queued at once; the worker would start its own share within milliseconds.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(inFlight()).toBe(PLACES);

    answer();
    await waitFor('an attempt to every endpoint', () => inFlight() === ENDPOINTS, { timeoutMs: 20_000 });
    for (const path of paths) expect(receiver.received(path).map((delivery) => delivery.eventId)).toEqual([event.id]);
  }, 40_000);
});
