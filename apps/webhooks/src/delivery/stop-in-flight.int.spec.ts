import { readFileSync } from 'node:fs';
import { MerchantEventType } from '@pp/contracts';
import { BusClient, connectNats } from '@pp/platform';
import { TestStack, testInfra, waitFor, WebhookReceiver } from '@pp/testing';
import type { NatsConnection } from 'nats';
import { LedgerEventFixture } from '../intake/ledger-event.fixture';

/*
 * A stop (SIGTERM) while an attempt is in flight: the attempt finishes, and
 * its failure's retry is queued in Redis before the service lets its queue
 * go, rather than left for a sweeper of a later process.
 */
describe('webhooks: a stop with an attempt in flight', () => {
  let stack: TestStack;
  let nc: NatsConnection;
  let bus: BusClient;
  let ledger: LedgerEventFixture;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['webhooks'], label: 'whstopinflight', env: { WEBHOOK_RETRY_SCHEDULE: '0,60' } });
    nc = await connectNats(testInfra.natsUrl, 'webhooks-stop-in-flight-spec');
    bus = new BusClient(nc, stack.namespace, 5000);
    ledger = new LedgerEventFixture(nc, stack.namespace);
    await ledger.createStream();
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await receiver?.close();
    await nc?.close();
    await stack?.stop();
  });

  it('given an attempt that fails after the stop began, then its retry is queued before the queue closes', async () => {
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
