import { MerchantEventType } from '@pp/contracts';
import { sampleSum, scrape, waitFor } from '@pp/testing';
import { startWebhooksTestBed, type WebhooksTestBed } from '../testing/webhooks-test-bed';

const PLACES = 16;
const TIMEOUT_MS = 3000;
/** What the gate derives from those (slow-endpoint-gate.ts): a slow endpoint may hold one place here. */
const PER_SLOW_ENDPOINT = PLACES / 16;
const HANGING = ['/hang-1', '/hang-2', '/hang-3'];

/*
 * One merchant's endpoints that never answer must not hold every delivery
 * place of a replica (docs/ARCHITECTURE.md, Webhook delivery): once they are
 * known slow, another merchant's webhooks go out within an attempt timeout,
 * not behind the whole backlog; an attempt held back spends nothing until
 * it has waited an attempt timeout, and is then recorded failed, unsent.
 */
describe('webhooks: endpoints that never answer beside one that does', () => {
  let bed: WebhooksTestBed;
  let releaseHanging!: () => void;

  beforeAll(async () => {
    bed = await startWebhooksTestBed('whslowisolation', {
      WEBHOOK_DELIVERY_CONCURRENCY: String(PLACES),
      WEBHOOK_ATTEMPT_TIMEOUT_MS: String(TIMEOUT_MS),
      // No retry within the test: every request a hanging endpoint sees is a first attempt.
      WEBHOOK_RETRY_SCHEDULE: '0,600',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    });
  });
  afterAll(async () => {
    releaseHanging?.();
    await bed?.close();
  });

  it('given a backlog for endpoints that hang, when another merchant is paid, then its webhooks arrive within an attempt timeout and the hanging ones keep to their share', async () => {
    const { bus, ledger, receiver, stack } = bed;
    const hang = new Promise<void>((resolve) => (releaseHanging = resolve));
    const slowMerchant = `mer_hang${Date.now()}`;
    const fastMerchant = `mer_fast${Date.now()}`;
    for (const path of HANGING) {
      const created = await bus.request('webhooks.endpoints.create.v1', { merchant_id: slowMerchant, livemode: false, url: receiver.url(path) });
      receiver.trust(path, created.secret);
      receiver.scriptFirstOfEachEvent(path, { status: 200, until: hang });
    }
    const fast = await bus.request('webhooks.endpoints.create.v1', { merchant_id: fastMerchant, livemode: false, url: receiver.url('/fast') });
    receiver.trust('/fast', fast.secret);

    const started = Date.now();
    for (let i = 0; i < 30; i += 1) await ledger.publish(ledger.event(slowMerchant, MerchantEventType.PaymentConfirmed));
    const hangingSeen = () => HANGING.reduce((sum, path) => sum + receiver.received(path).length, 0);
    await waitFor('the hanging endpoints to hold every place', () => hangingSeen() >= PLACES);
    // Past a slow answer's time (a second), the hanging endpoints are known slow: more of their backlog waits its turn.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    for (let i = 0; i < 30; i += 1) await ledger.publish(ledger.event(slowMerchant, MerchantEventType.PaymentConfirmed));

    const paid = Date.now();
    const events = Array.from({ length: 10 }, () => ledger.event(fastMerchant, MerchantEventType.PaymentConfirmed));
    for (const event of events) await ledger.publish(event);
    await Promise.all(events.map((event) => receiver.whenReceived((record) => record.path === '/fast' && record.eventId === event.id, 4 * TIMEOUT_MS)));
    // Without the gate they wait behind the backlog: 180 attempts, 16 places, 3 s each (about 34 s).
    expect(Date.now() - paid).toBeLessThan(2 * TIMEOUT_MS);

    // Once the first waves have timed out, each hanging endpoint is sent at most its share at a time.
    const settled = started + 2 * TIMEOUT_MS;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, settled - Date.now())));
    const before = hangingSeen();
    await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS));
    // Within one timeout an endpoint's one place turns over at most twice (the attempt ending in it, the next one).
    expect(hangingSeen() - before).toBeLessThanOrEqual(HANGING.length * PER_SLOW_ENDPOINT * 2);
    expect(sampleSum(await scrape(stack.metricsUrl('webhooks')), 'pp_webhook_attempts_held_back_total')).toBeGreaterThan(0);

    // Held back, an attempt spends nothing until it has waited an attempt timeout; then it is recorded failed, unsent,
    // and follows the schedule (600 s here). Every attempt recorded as sent reached a hanging endpoint, once.
    const attempts = await waitFor('every attempt claimed to reach its endpoint or be recorded unsent', async () => {
      const { rows } = await (await stack.sql()).query<{ sent: number; unsent: number }>(
        `SELECT count(*) FILTER (WHERE a.error_message IS NULL OR a.error_message NOT LIKE 'not sent:%')::int AS sent,
                count(*) FILTER (WHERE a.error_message LIKE 'not sent: the endpoint had not answered%')::int AS unsent
           FROM webhooks.delivery_attempts a JOIN webhooks.endpoints ep ON ep.id = a.endpoint_id WHERE ep.merchant_id = $1`,
        [slowMerchant],
      );
      return rows[0].sent === hangingSeen() && rows[0];
    });
    expect(attempts.unsent).toBeGreaterThan(0);
    expect(attempts.sent + attempts.unsent).toBeLessThanOrEqual(60 * HANGING.length);
  }, 60_000);
});
