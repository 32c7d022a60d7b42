import { randomBytes } from 'node:crypto';
import { MerchantEventType, ledgerEventSubject, type StoredEvent } from '@pp/contracts';
import { connectNats, ensureStream, JsonLogger, ledgerEventsPlace, subjectPrefix } from '@pp/platform';
import { testInfra, waitFor } from '@pp/testing';
import type { NatsConnection } from 'nats';
import type { GatewayConfig } from '../gateway.config';
import { type FeedSignal, MerchantEventFeed } from './merchant-event.feed';

/*
 * The gateway's live feed of merchant events, on the project's NATS server as the gateway's own identity: it hears
 * what the ledger's stream stores on the merchant events' subjects, as the stream republishes it, for the listener's
 * merchant and mode only, and tells its listeners to resync from the durable log when it starts and after every
 * reconnection, when it may have missed some.
 */
describe('MerchantEventFeed', () => {
  const namespace = `t${randomBytes(5).toString('hex')}`;
  let gateway: NatsConnection;
  let publisher: NatsConnection;
  let feed: MerchantEventFeed;
  const logged: Array<{ msg: string }> = [];

  beforeAll(async () => {
    gateway = await connectNats(testInfra.natsUrlOf('gateway'), 'feed-spec-gateway');
    publisher = await connectNats(testInfra.natsUrl, 'feed-spec');
    feed = new MerchantEventFeed({ PP_NAMESPACE: namespace } as GatewayConfig, gateway, new JsonLogger('gateway', 'warn', (line) => logged.push(JSON.parse(line))));
    // As the migrate step lays it out (the harness's identity may).
    await ensureStream(publisher, { ...ledgerEventsPlace(namespace), duplicateWindowMs: 60_000, maxAgeMs: 60_000, replicas: 1 });
  });
  afterAll(async () => {
    await (await publisher?.jetstreamManager())?.streams.delete(ledgerEventsPlace(namespace).name);
    feed?.onApplicationShutdown();
    await gateway?.close();
    await publisher?.close();
  });

  const event = (merchantId: string, livemode: boolean): StoredEvent =>
    ({
      id: `evt_${randomBytes(8).toString('hex')}`,
      position: 1,
      stream_id: 'transaction-txn_1',
      version: 1,
      type: MerchantEventType.PaymentConfirmed,
      schema_version: 1,
      data: { reference: 'order-1', amount: 2500, status: 'CONFIRMED', metadata: null, payment_id: 'txn_1' },
      metadata: { merchant_id: merchantId, livemode },
      created_at: new Date().toISOString(),
    }) as StoredEvent;
  /** As the ledger's publisher does: to the stream, awaiting its acknowledgement. */
  const publish = (stored: StoredEvent | null) => publisher.jetstream().publish(`${subjectPrefix(namespace)}${ledgerEventSubject(MerchantEventType.PaymentConfirmed)}`, JSON.stringify(stored));

  it('given a listener, then it hears resync at once, its own merchant and mode’s events, and resync again after a reconnection', async () => {
    const heard: FeedSignal[] = [];
    const stop = feed.listen({ merchant_id: 'mer_feed', livemode: true }, (signal) => heard.push(signal));
    await gateway.flush();
    const mine = event('mer_feed', true);
    await publish(event('mer_feed', false));
    await publish(event('mer_other', true));
    await publish(mine);
    await waitFor('the merchant’s event', () => heard.some((signal) => signal.kind === 'event'));
    expect(heard).toEqual([{ kind: 'resync' }, { kind: 'event', event: expect.objectContaining({ id: mine.id }) }]);

    await gateway.reconnect();
    await waitFor('resync after the reconnection', () => heard.filter((signal) => signal.kind === 'resync').length === 2, { timeoutMs: 10_000 });

    // The subscription is sent again on reconnecting: once the server has it, what is published reaches the feed.
    await gateway.flush();
    // A message it cannot read (not JSON, or no merchant) is skipped and logged; the connection goes on reading.
    await publish(null);
    const after = event('mer_feed', true);
    await publish(after);
    await waitFor('the event after the unreadable one', () => heard.some((signal) => signal.kind === 'event' && signal.event.id === after.id));
    expect(logged.map((line) => line.msg)).toContain('merchant events feed: skipped a message it could not read');
    stop();
  });

  it('given the ledger’s publish to its stream, then the gateway hears it without a reply subject, and may not hear the publish itself: it cannot answer the acknowledgement the ledger awaits', async () => {
    const replies: Array<string | undefined> = [];
    const republished = gateway.subscribe(`${subjectPrefix(namespace)}ledger.feed.merchant.>`, { callback: (_error, message) => replies.push(message.reply) });
    const refused = await connectNats(testInfra.natsUrlOf('gateway'), 'feed-spec-publishes');
    const ended = new Promise<Error | null>((resolve) => refused.subscribe(`${subjectPrefix(namespace)}ledger.events.merchant.>`, { callback: (error) => resolve(error) }));
    try {
      await gateway.flush();
      const ack = await publish(event('mer_feed', true));
      expect(ack.duplicate).toBe(false);
      await waitFor('the republished event', () => replies.length === 1);
      expect(replies).toEqual(['']);
      expect(String(await ended)).toMatch(/Permissions Violation for Subscription/);
    } finally {
      republished.unsubscribe();
      await refused.close().catch(() => undefined);
    }
  });

  it('given a server that refuses the subscription (its permissions not yet updated), then the feed says so and tries again while anyone listens', async () => {
    // The checkout's identity may not hear merchant events: its subscription is refused as a not-yet-updated server would.
    const refused = await connectNats(testInfra.natsUrlOf('checkout'), 'feed-spec-refused');
    const lines: Array<{ msg: string }> = [];
    const refusedFeed = new MerchantEventFeed({ PP_NAMESPACE: namespace } as GatewayConfig, refused, new JsonLogger('gateway', 'warn', (line) => lines.push(JSON.parse(line))));
    const heard: FeedSignal[] = [];
    const stop = refusedFeed.listen({ merchant_id: 'mer_feed', livemode: true }, (signal) => heard.push(signal));
    try {
      const ended = () => lines.filter((line) => line.msg === 'merchant events feed: subscription ended; following again shortly').length;
      await waitFor('two refusals, a second after the first', () => ended() >= 2, { timeoutMs: 10_000 });
      expect(heard.filter((signal) => signal.kind === 'resync').length).toBeGreaterThanOrEqual(2);
    } finally {
      stop();
      refusedFeed.onApplicationShutdown();
      await refused.close();
    }
  });
});
