import { healthSubject, LEDGER_EVENTS_STREAM, type ServiceHealthReply, WEBHOOKS_DELIVERY_CONSUMER } from '@pp/contracts';
import { type BusClient, CONSUMER_PENDING, connectNats, DOWN_AFTER_FAILURES, streamName } from '@pp/platform';
import { scrape, TestStack, testInfra, waitFor } from '@pp/testing';
import type { NatsConnection } from 'nats';
import { LedgerEventFixture } from './ledger-event.fixture';
import { READER_HEALTH_CHECK } from './merchant-event.consumer';

/**
 * The webhooks service's health answer (what the gateway's /readyz and the
 * container probes ask) while its durable consumer cannot be bound: the
 * service runs, Postgres and Redis answer, yet no webhook would go out. A
 * real service process on the real NATS server; the ledger's stream is
 * removed, as in a deployment whose migrate step did not create it or that
 * lost it.
 */
describe('webhooks health while the merchant events cannot be read', () => {
  let stack: TestStack;
  let nc: NatsConnection;
  let bus: BusClient;
  let ledger: LedgerEventFixture;
  const stream = () => streamName(stack.namespace, LEDGER_EVENTS_STREAM);

  beforeAll(async () => {
    stack = await TestStack.start({ services: [], label: 'webhooksreaderhealth' });
    // Lays out the namespace's streams and migrates the schema, as a deployment's migrate step; the stream then goes.
    await stack.envFor('webhooks');
    nc = await connectNats(testInfra.natsUrl, 'reader-health-spec');
    await (await nc.jetstreamManager()).streams.delete(stream());
    ledger = new LedgerEventFixture(nc, stack.namespace);
    await stack.startService('webhooks');
    bus = await stack.bus();
  });

  afterAll(async () => {
    await nc?.close();
    await stack?.stop();
  });

  const health = (): Promise<ServiceHealthReply> => bus.request(healthSubject('webhooks'), {});
  /** The first health answer with this status. */
  const answering = (status: ServiceHealthReply['status'], timeoutMs?: number) =>
    waitFor(
      `the webhooks service to answer ${status}`,
      async () => {
        const reply = await health();
        return reply.status === status && reply;
      },
      { timeoutMs },
    );
  /** This pod's own probe on its metrics port, as the kubelet calls it. */
  const probe = async (path: '/livez' | '/readyz') => {
    const response = await fetch(new URL(path, stack.metricsUrl('webhooks')));
    return { status: response.status, body: await response.json() };
  };
  const backlogReported = async () =>
    (await scrape(stack.metricsUrl('webhooks'))).samples.some(
      (sample) => sample.name === CONSUMER_PENDING.name && sample.labels.consumer === WEBHOOKS_DELIVERY_CONSUMER,
    );

  it('answers down, naming the reader, from its first answer while the stream is missing; up once the durable consumer can be bound', async () => {
    const down = await health();
    expect(down.status).toBe('down');
    expect(down.dependencies[READER_HEALTH_CHECK]).toEqual({
      status: 'down',
      latency_ms: expect.any(Number),
      error: 'not reading merchant events yet: the durable consumer is not bound',
    });
    expect(down.dependencies.postgres.status).toBe('up');
    // Why the backlog alert cannot fire now, and JetStreamConsumerAbsent must.
    expect(await backlogReported()).toBe(false);
    // The pod's probes say the same, of this process: not ready, yet alive.
    const notReady = await probe('/readyz');
    expect(notReady).toMatchObject({ status: 503, body: { status: 'down', dependencies: { [READER_HEALTH_CHECK]: { status: 'down' }, nats: { status: 'up' } } } });
    expect(await probe('/livez')).toEqual({ status: 200, body: { status: 'ok' } });

    await ledger.createStream();
    const up = await answering('up');
    expect(up.dependencies[READER_HEALTH_CHECK]).toEqual({ status: 'up', latency_ms: expect.any(Number) });
    expect(await backlogReported()).toBe(true);
    expect(await probe('/readyz')).toMatchObject({ status: 200, body: { status: 'up', dependencies: { [READER_HEALTH_CHECK]: { status: 'up' }, postgres: { status: 'up' }, redis: { status: 'up' } } } });
  });

  it('answers down once its stream goes while it reads and stays gone, and up again once it is back', async () => {
    await ledger.createStream();
    await answering('up');
    await (await nc.jetstreamManager()).streams.delete(stream());

    // A round a second: the streak takes a few seconds to reach DOWN_AFTER_FAILURES.
    const down = await answering('down', 20_000);
    const reader = down.dependencies[READER_HEALTH_CHECK];
    expect(reader).toEqual({ status: 'down', latency_ms: expect.any(Number), error: expect.stringMatching(/^not reading merchant events: \d+ attempts in a row failed$/) });
    expect(parseInt(reader.error!.replace(/^\D+/, ''), 10)).toBeGreaterThanOrEqual(DOWN_AFTER_FAILURES);

    await ledger.createStream();
    await answering('up');
    expect(await backlogReported()).toBe(true);
  });

  it('answers up from its first answer after a normal start: readiness does not flap while the consumer binds', async () => {
    await ledger.createStream();
    await stack.stopService('webhooks');
    await stack.startService('webhooks');
    expect((await health()).dependencies[READER_HEALTH_CHECK]).toEqual({ status: 'up', latency_ms: expect.any(Number) });
  });
});
