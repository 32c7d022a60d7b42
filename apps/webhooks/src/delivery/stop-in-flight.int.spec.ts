import { readFileSync } from 'node:fs';
import { MerchantEventType } from '@pp/contracts';
import { waitFor } from '@pp/testing';
import { startWebhooksTestBed, type WebhooksTestBed } from '../testing/webhooks-test-bed';

/*
 * A stop (SIGTERM) while an attempt is in flight: the attempt finishes, and
 * its failure's retry is queued in Redis before the service lets its queue
 * go, rather than left for a sweeper of a later process.
 */
describe('webhooks: a stop with an attempt in flight', () => {
  let bed: WebhooksTestBed;

  beforeAll(async () => {
    bed = await startWebhooksTestBed('whstopinflight', { WEBHOOK_RETRY_SCHEDULE: '0,60' });
  });
  afterAll(() => bed?.close());

  it('given an attempt that fails after the stop began, then its retry is queued before the queue closes', async () => {
    const { stack, bus, ledger, receiver } = bed;
    const merchant = `mer_stop${Date.now()}`;
    let release!: () => void;
    receiver.script('/inflight', [{ status: 500, until: new Promise<void>((resolve) => (release = resolve)) }]);
    const created = await bus.request('webhooks.endpoints.create.v1', { merchant_id: merchant, livemode: false, url: receiver.url('/inflight') });
    receiver.trust('/inflight', created.secret);
    await ledger.publish(ledger.event(merchant, MerchantEventType.PaymentConfirmed));
    await waitFor('the attempt to reach the endpoint', () => receiver.received('/inflight').length === 1);

    const stopping = stack.stopService('webhooks');
    await new Promise((resolve) => setTimeout(resolve, 300)); // the stop's hooks are under way
    release();
    await stopping;

    const log = readFileSync(stack.process('webhooks').logFile, 'utf8');
    expect(log).toContain('consuming merchant events'); // the service's own log, read whole
    expect(log).not.toContain('could not queue delivery attempts');
  });
});
