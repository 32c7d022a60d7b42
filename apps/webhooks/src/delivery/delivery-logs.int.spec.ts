import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { MerchantEventType, type WebhookEndpointView } from '@pp/contracts';
import { sampleSum, scrape, waitFor } from '@pp/testing';
import { startWebhooksTestBed, type WebhooksTestBed } from '../testing/webhooks-test-bed';
import { NOT_SENT_UNSIGNABLE_ERROR } from './delivery-attempt.job';

const DISABLED = 'pp_webhook_endpoints_disabled_total';

/*
 * What the webhooks service says of its deliveries, read where operators read
 * it: its log lines, each under the id of the request that caused the event
 * (its correlation_id), whether the attempt ran at once or from the queue, and
 * its metrics, which count an endpoint disabled once however many attempts in
 * flight asked for it.
 */
describe('webhooks: delivery logs and the disabled-endpoints count', () => {
  let bed: WebhooksTestBed;

  beforeAll(async () => {
    bed = await startWebhooksTestBed('whdeliverylogs', { WEBHOOK_RETRY_SCHEDULE: '0,0.2' });
  });
  afterAll(() => bed?.close());

  /** A merchant with one endpoint on its own receiver path, answering `replies` in turn. */
  const endpointOf = async (path: string, replies: Array<{ status: number; until?: Promise<unknown> }>) => {
    const merchant = `mer_logs${randomUUID().slice(0, 8)}`;
    bed.receiver.script(path, replies);
    const created = await bed.bus.request('webhooks.endpoints.create.v1', { merchant_id: merchant, livemode: false, url: bed.receiver.url(path) });
    bed.receiver.trust(path, created.secret);
    return { merchant, endpointId: created.id };
  };
  const status = async (merchant: string, endpointId: string) =>
    (await bed.bus.request('webhooks.endpoints.list.v1', { merchant_id: merchant, livemode: false })).endpoints.find((e: WebhookEndpointView) => e.id === endpointId)?.status;
  /** The service's log lines about the endpoint. */
  const linesOf = (endpointId: string): Array<Record<string, unknown>> =>
    readFileSync(bed.stack.process('webhooks').logFile, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.endpoint_id === endpointId);
  const disabledCount = async () => sampleSum(await scrape(bed.stack.metricsUrl('webhooks')), DISABLED, { reason: 'gone' });

  it('given events with and without a well-formed request id, then their deliveries log under it, or under a new one, at once and from the queue', async () => {
    const atOnce = await endpointOf('/logs-at-once', [{ status: 410 }]);
    const queued = await endpointOf('/logs-queued', [{ status: 500 }, { status: 410 }]);
    const unfit = await endpointOf('/logs-unfit', [{ status: 410 }]);
    const [atOnceId, queuedId] = [`req_${randomUUID()}`, `req_${randomUUID()}`];

    await bed.ledger.publish(bed.ledger.event(atOnce.merchant, MerchantEventType.PaymentConfirmed, { correlationId: atOnceId }));
    // Attempt 1 fails: attempt 2, which disables the endpoint, comes from the queue.
    await bed.ledger.publish(bed.ledger.event(queued.merchant, MerchantEventType.PaymentConfirmed, { correlationId: queuedId }));
    await bed.ledger.publish(bed.ledger.event(unfit.merchant, MerchantEventType.PaymentConfirmed, { correlationId: 'two words' }));
    for (const { merchant, endpointId } of [atOnce, queued, unfit]) {
      await waitFor(`${endpointId} disabled and its line written`, async () => (await status(merchant, endpointId)) === 'disabled' && linesOf(endpointId).length > 0);
    }

    expect(linesOf(atOnce.endpointId)).toEqual([expect.objectContaining({ msg: 'webhook endpoint disabled', request_id: atOnceId })]);
    expect(linesOf(queued.endpointId)).toEqual([expect.objectContaining({ msg: 'webhook endpoint disabled', request_id: queuedId })]);
    expect(linesOf(unfit.endpointId)).toEqual([
      expect.objectContaining({ msg: 'webhook endpoint disabled', request_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/) }),
    ]);
  });

  it('given two attempts to one endpoint in flight, both answered 410, then the endpoint is counted and logged disabled once', async () => {
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    const gone = await endpointOf('/gone-twice', [
      { status: 410, until: answered },
      { status: 410, until: answered },
    ]);
    const before = await disabledCount();

    await bed.ledger.publish(bed.ledger.event(gone.merchant, MerchantEventType.PaymentConfirmed));
    await bed.ledger.publish(bed.ledger.event(gone.merchant, MerchantEventType.PaymentConfirmed));
    await waitFor('both attempts at the endpoint', () => bed.receiver.received('/gone-twice').length === 2);
    release(); // both answered together: their outcomes are recorded together
    await waitFor('the endpoint disabled', async () => (await status(gone.merchant, gone.endpointId)) === 'disabled');
    await waitFor('both outcomes recorded, and the disabling said', async () => {
      const { deliveries } = await bed.bus.request('webhooks.endpoints.deliveries.v1', { merchant_id: gone.merchant, livemode: false, endpoint_id: gone.endpointId });
      return deliveries.length === 2 && deliveries.every((delivery) => delivery.delivery_status === 'EXHAUSTED') && linesOf(gone.endpointId).length > 0;
    });
    await new Promise((resolve) => setTimeout(resolve, 200)); // time enough for a second count, were there one

    expect(await disabledCount()).toBe(before + 1);
    expect(linesOf(gone.endpointId).filter((line) => line.msg === 'webhook endpoint disabled')).toHaveLength(1);
  });

  it('given an endpoint whose signing secret does not open here (a key rotation out of order), then each attempt is recorded failed, unsent, on the schedule to its end, logged for the operators, and the endpoint stays enabled', async () => {
    const broken = await endpointOf('/unsignable', [{ status: 200 }]);
    const other = await endpointOf('/other-secret', [{ status: 200 }]);
    // A value sealed for another endpoint: sealed secrets are bound to their endpoint id, so it does not open here.
    const db = await bed.stack.sql();
    await db.query(`UPDATE webhooks.endpoints SET secret_sealed = (SELECT secret_sealed FROM webhooks.endpoints WHERE id = $2) WHERE id = $1`, [broken.endpointId, other.endpointId]);

    await bed.ledger.publish(bed.ledger.event(broken.merchant, MerchantEventType.PaymentConfirmed));
    const attempts = async () => (await bed.bus.request('webhooks.endpoints.deliveries.v1', { merchant_id: broken.merchant, livemode: false, endpoint_id: broken.endpointId })).deliveries;
    await waitFor('both attempts of the schedule recorded', async () => (await attempts()).some((attempt) => attempt.delivery_status === 'EXHAUSTED'));

    expect((await attempts()).map(({ attempt, delivery_status, error_message }) => ({ attempt, delivery_status, error_message }))).toEqual(
      expect.arrayContaining([
        { attempt: 1, delivery_status: 'FAILED', error_message: NOT_SENT_UNSIGNABLE_ERROR },
        { attempt: 2, delivery_status: 'EXHAUSTED', error_message: NOT_SENT_UNSIGNABLE_ERROR },
      ]),
    );
    expect(bed.receiver.received('/unsignable')).toEqual([]);
    expect(await status(broken.merchant, broken.endpointId)).toBe('enabled');
    expect(linesOf(broken.endpointId).filter((line) => line.msg === 'webhook attempt not sent: a signing secret did not open')).toHaveLength(2);
  });
});
