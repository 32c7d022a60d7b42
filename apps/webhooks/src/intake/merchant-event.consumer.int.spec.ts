import { randomBytes } from 'node:crypto';
import { LEDGER_EVENTS_STREAM, MERCHANT_EVENTS_FILTER, WEBHOOKS_DELIVERY_CONSUMER } from '@pp/contracts';
import { connectNats, HealthService, JsonLogger, ServiceMetrics, streamName, subjectPrefix } from '@pp/platform';
import { testInfra, waitFor } from '@pp/testing';
import { AckPolicy, type NatsConnection } from 'nats';
import type { DeliveryAttemptJob } from '../delivery/delivery-attempt.job';
import type { DeliveryQueue } from '../delivery/delivery.queue';
import type { DeliveryRepository } from '../delivery/delivery.repository';
import { WebhooksConfig } from '../webhooks.config';
import { LedgerEventFixture } from './ledger-event.fixture';
import { MerchantEventConsumer } from './merchant-event.consumer';

/**
 * Shutdown while the consumer is still binding to the ledger's stream (a
 * SIGTERM just after start-up, as in a rolling deployment). The consumer
 * runs on a real NATS server; only its call for the durable consumer is
 * held back, so that the shutdown lands in the middle of the binding.
 */
describe('MerchantEventConsumer, stopped while it binds', () => {
  let nc: NatsConnection;
  const namespace = `t${randomBytes(5).toString('hex')}`;

  beforeAll(async () => {
    nc = await connectNats(testInfra.natsUrl, 'merchant-event-consumer-spec');
    await new LedgerEventFixture(nc, namespace).createStream();
  });
  afterAll(async () => {
    await (await nc?.jetstreamManager())?.streams.delete(streamName(namespace, LEDGER_EVENTS_STREAM)).catch(() => undefined);
    await nc?.close();
  });

  /** A consumer in `ns` that binds to the stream on `connection`; no message reaches the parts it is given none of. */
  function bindingOnly(ns: string, connection: NatsConnection): MerchantEventConsumer {
    const unused = {} as never;
    return new MerchantEventConsumer(
      Object.assign(new WebhooksConfig(), { PP_NAMESPACE: ns }),
      connection,
      unused as DeliveryRepository,
      unused as DeliveryQueue,
      unused as DeliveryAttemptJob,
      new JsonLogger('webhooks', 'error', () => undefined),
      new ServiceMetrics('webhooks', { processMetrics: false }),
      new HealthService('webhooks'),
    );
  }

  /** The connection, with `jetstream().consumers.get` waiting until the returned release is called. */
  function holdingConsumerLookups(connection: NatsConnection): { nc: NatsConnection; reached: Promise<void>; release: () => void } {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let reach!: () => void;
    const reached = new Promise<void>((resolve) => (reach = resolve));
    const jetstream = connection.jetstream();
    const held = new Proxy(jetstream.consumers, {
      get: (target, property) =>
        property === 'get'
          ? async (...args: Parameters<typeof target.get>) => {
              reach();
              await released;
              return target.get(...args);
            }
          : Reflect.get(target, property),
    });
    const proxied = new Proxy(connection, {
      get: (target, property) =>
        property === 'jetstream'
          ? () => new Proxy(jetstream, { get: (js, name) => (name === 'consumers' ? held : Reflect.get(js, name)) })
          : Reflect.get(target, property),
    });
    return { nc: proxied, reached, release };
  }

  it('given a shutdown that starts while the durable consumer is being looked up, when the lookup then answers, then the shutdown still ends', async () => {
    const held = holdingConsumerLookups(nc);
    const consumer = bindingOnly(namespace, held.nc);
    consumer.onApplicationBootstrap();
    await held.reached;

    const shutdown = consumer.onApplicationShutdown();
    held.release();

    const outcome = await Promise.race([shutdown.then(() => 'ended'), new Promise((resolve) => setTimeout(resolve, 5_000, 'still running after 5 s'))]);
    expect(outcome).toBe('ended');
  });

  it('given the durable consumer an older version made with a delivery limit, when the consumer binds, then no limit is left: an event is retried until recorded', async () => {
    const other = `t${randomBytes(5).toString('hex')}`;
    const stream = streamName(other, LEDGER_EVENTS_STREAM);
    await new LedgerEventFixture(nc, other).createStream();
    const jsm = await nc.jetstreamManager();
    try {
      await jsm.consumers.add(stream, {
        durable_name: WEBHOOKS_DELIVERY_CONSUMER,
        filter_subject: subjectPrefix(other) + MERCHANT_EVENTS_FILTER,
        ack_policy: AckPolicy.Explicit,
        max_deliver: 30,
      });
      const consumer = bindingOnly(other, nc);
      consumer.onApplicationBootstrap();
      try {
        await waitFor('the consumer to be brought up to date', async () => (await jsm.consumers.info(stream, WEBHOOKS_DELIVERY_CONSUMER)).config.max_deliver === -1);
      } finally {
        await consumer.onApplicationShutdown();
      }
    } finally {
      await jsm.streams.delete(stream).catch(() => undefined);
    }
  });
});
