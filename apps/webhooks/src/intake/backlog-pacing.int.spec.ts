import { MerchantEventType } from '@pp/contracts';
import { bullQueueConnection, BusClient, connectNats, queuePrefix } from '@pp/platform';
import { TestStack, testInfra, waitFor, WebhookReceiver } from '@pp/testing';
import { Queue } from 'bullmq';
import type { NatsConnection } from 'nats';
import type { Pool } from 'pg';
import { WebhookQueue } from '../delivery/delivery.queue';
import { LedgerEventFixture } from './ledger-event.fixture';

/** WEBHOOK_BACKLOG_WAIT_MS here: long enough that the first test opens its gate well before a waiting consumer gives up. */
const BACKLOG_WAIT_MS = 3000;
const EVENTS = 150;
const PATHS = ['/first', '/second'];

/*
 * The event consumer takes a backlog no faster than the replica makes its
 * first attempts (AttemptPlaces, WEBHOOK_DELIVERY_CONCURRENCY 256 here): a
 * backlog of 300 deliveries, more than the places, is worked off without a
 * single queued job while the attempts finish in time, and is still recorded
 * in full, its excess queued, while endpoints hold every place past the wait.
 */
describe('webhooks taking a backlog of events', () => {
  let stack: TestStack;
  let nc: NatsConnection;
  let bus: BusClient;
  let ledger: LedgerEventFixture;
  let receiver: WebhookReceiver;
  let db: Pool;
  let queue: Queue;

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['webhooks'],
      label: 'webhooksbacklog',
      env: { WEBHOOK_BACKLOG_WAIT_MS: String(BACKLOG_WAIT_MS), WEBHOOK_ATTEMPT_TIMEOUT_MS: '30000' },
    });
    nc = await connectNats(testInfra.natsUrl, 'webhooks-backlog-spec');
    bus = new BusClient(nc, stack.namespace, 5000);
    ledger = new LedgerEventFixture(nc, stack.namespace);
    await ledger.createStream();
    receiver = await WebhookReceiver.start();
    db = await stack.sql();
    queue = new Queue(WebhookQueue.Delivery, { connection: bullQueueConnection(testInfra.redisUrl), prefix: queuePrefix(stack.namespace) });
  });

  afterAll(async () => {
    await queue?.close();
    await receiver?.close();
    await nc?.close();
    await stack?.stop();
  });

  /**
   * A fresh merchant with two endpoints on this receiver, every answer held
   * until `open` is called, and EVENTS events for it, not yet published.
   */
  async function heldBacklog(merchant: string) {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const paths = PATHS.map((path) => `/${merchant}${path}`);
    for (const path of paths) {
      const created = await bus.request('webhooks.endpoints.create.v1', { merchant_id: merchant, livemode: false, url: receiver.url(path) });
      receiver.trust(path, created.secret);
      receiver.script(path, Array.from({ length: EVENTS }, () => ({ until: gate })));
    }
    const events = Array.from({ length: EVENTS }, () => ledger.event(merchant, MerchantEventType.PaymentConfirmed));
    return {
      paths,
      eventIds: events.map((event) => event.id),
      publish: () => Promise.all(events.map((event) => ledger.publish(event))),
      heldAttempts: () => paths.reduce((sum, path) => sum + receiver.received(path).length, 0),
      open,
    };
  }

  const queuedJobs = async () => Object.values(await queue.getJobCounts()).reduce((sum, count) => sum + count, 0);
  const recordedEvents = async (merchant: string) =>
    (await db.query(`SELECT count(*)::int AS n FROM webhooks.events WHERE merchant_id = $1`, [merchant])).rows[0].n as number;
  const succeeded = async (merchant: string) =>
    (
      await db.query(
        `SELECT count(*)::int AS n FROM webhooks.deliveries d JOIN webhooks.events e ON e.id = d.event_id WHERE e.merchant_id = $1 AND d.status = 'SUCCESS'`,
        [merchant],
      )
    ).rows[0].n as number;

  async function expectEachDeliveredOnce(merchant: string, { paths, eventIds }: { paths: string[]; eventIds: string[] }): Promise<void> {
    await waitFor('every delivery to succeed', async () => (await succeeded(merchant)) === eventIds.length * paths.length, { timeoutMs: 30_000 });
    for (const path of paths) {
      const received = receiver.received(path).map((delivery) => delivery.eventId);
      expect(received.sort()).toEqual([...eventIds].sort());
    }
  }

  it('makes every first attempt of a backlog larger than its places in process, none through the queue', async () => {
    const merchant = 'mer_backlog_paced';
    const backlog = await heldBacklog(merchant);
    await backlog.publish();

    // Half the places at least are taken by held attempts: the consumer waits for more to free.
    await waitFor('half the places to be taken by held attempts', () => backlog.heldAttempts() >= 128);
    expect(await recordedEvents(merchant)).toBeLessThan(EVENTS);
    expect(await queuedJobs()).toBe(0);

    backlog.open();
    await expectEachDeliveredOnce(merchant, backlog);
    expect(await queuedJobs()).toBe(0);
  });

  it('still records the whole backlog while endpoints hold every place past the wait, and queues what finds no place', async () => {
    const merchant = 'mer_backlog_held';
    const backlog = await heldBacklog(merchant);
    const queuedBefore = await queuedJobs();
    await backlog.publish();

    await waitFor('the whole backlog to be recorded', async () => (await recordedEvents(merchant)) === EVENTS, { timeoutMs: 20_000 });
    // What finds no place is queued after the statement that records its event: on a loaded machine the job lands a moment later.
    expect(await waitFor('the excess to be queued', async () => (await queuedJobs()) > queuedBefore)).toBe(true);

    backlog.open();
    await expectEachDeliveredOnce(merchant, backlog);
  });
});
