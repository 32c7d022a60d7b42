import { readFileSync } from 'node:fs';
import { MerchantEventType, WebhookDeliveryStatus, type WebhookDeliveryAttemptView } from '@pp/contracts';
import { BusClient, connectNats, REDIS_COMMAND_TIMEOUT_MS } from '@pp/platform';
import { startStackWithFreezableRedis, type StackWithFreezableRedis, testInfra, waitFor, WebhookReceiver } from '@pp/testing';
import type { NatsConnection } from 'nats';
import { LedgerEventFixture } from '../intake/ledger-event.fixture';

const SWEEP_INTERVAL_MS = 300;

/*
 * Webhook delivery against a Redis that stops answering without closing its
 * connections (a paused server, a cut network). The first attempt needs no
 * queue; its retry cannot be queued and waits in Postgres. The queue's calls
 * (queueing the retry, the sweeper's look at lost jobs) fail at the Redis
 * deadline (bull-options.ts) and are tried again on the sweeper's next
 * interval; a stop ends those under way; and once Redis answers, the
 * sweeper of a restarted service queues the retry, which is made once.
 */
describe('webhooks: Redis stops answering', () => {
  let frozen: StackWithFreezableRedis;
  let nc: NatsConnection;
  let bus: BusClient;
  let ledger: LedgerEventFixture;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    frozen = await startStackWithFreezableRedis({
      services: ['webhooks'],
      label: 'whredisfrozen',
      env: { WEBHOOK_RETRY_SCHEDULE: '0,0.2', WEBHOOK_ATTEMPT_TIMEOUT_MS: '500', WEBHOOK_SWEEP_INTERVAL_MS: String(SWEEP_INTERVAL_MS) },
    });
    nc = await connectNats(testInfra.natsUrl, 'webhooks-frozen-redis-spec');
    bus = new BusClient(nc, frozen.stack.namespace, 5000);
    ledger = new LedgerEventFixture(nc, frozen.stack.namespace);
    await ledger.createStream();
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await receiver?.close();
    await nc?.close();
    await frozen?.stop();
  });

  it('given Redis holds back its answers when a first attempt fails, then queueing the retry and the sweep fail at the Redis deadline, the service stops at once, and once Redis answers the retry is made, once', async () => {
    const merchant = `mer_frozen${Date.now()}`;
    receiver.script('/frozen', [{ status: 500 }]);
    const created = await bus.request('webhooks.endpoints.create.v1', { merchant_id: merchant, livemode: false, url: receiver.url('/frozen') });
    receiver.trust('/frozen', created.secret);

    frozen.redis.freeze();
    const event = ledger.event(merchant, MerchantEventType.PaymentConfirmed);
    await ledger.publish(event);
    await waitFor('the first attempt', () => receiver.received('/frozen').length === 1);
    const warnings = () =>
      readFileSync(frozen.stack.process('webhooks').logFile, 'utf8')
        .split('\n')
        .filter((line) => line.includes('"level":"warn"'))
        .map((line) => JSON.parse(line) as { msg: string; error?: string });
    // The sweeper comes round to the overdue retry, and its look at the job fails at the deadline instead of waiting.
    await waitFor('a sweep to fail at the Redis deadline', () => warnings().some((w) => w.msg === 'delivery sweep failed' && w.error === 'Command timed out'), {
      timeoutMs: 4 * REDIS_COMMAND_TIMEOUT_MS,
    });
    expect(warnings()).toContainEqual(expect.objectContaining({ msg: 'could not queue delivery attempts; the sweeper queues them once they are due', error: 'Command timed out' }));

    const stopping = Date.now();
    await frozen.stack.stopService('webhooks');
    const stopMs = Date.now() - stopping;
    // The queue's close ends the calls waiting on Redis; the test stack's SIGKILL would come at 10 s.
    expect(stopMs).toBeLessThan(3 * REDIS_COMMAND_TIMEOUT_MS);

    frozen.redis.thaw();
    await frozen.stack.startService('webhooks');
    const attempts = await waitFor('the retry', async () => {
      const { deliveries } = await bus.request('webhooks.deliveries.list.v1', { merchant_id: merchant, livemode: false, event_id: event.id });
      return deliveries.length === 2 && deliveries[1].delivery_status !== WebhookDeliveryStatus.Pending && (deliveries as WebhookDeliveryAttemptView[]);
    });
    expect(attempts.map((a) => [a.attempt, a.delivery_status, a.http_status])).toEqual([
      [1, 'FAILED', 500],
      [2, 'SUCCESS', 200],
    ]);
    expect(receiver.received('/frozen').map((r) => r.answeredStatus)).toEqual([500, 200]);
  });
});
