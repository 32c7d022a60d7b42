import { randomUUID } from 'node:crypto';
import type { NatsConnection } from 'nats';
import { BusMetrics } from '../metrics/bus-metrics';
import { ServiceMetrics } from '../metrics/service-metrics';
import { flushOncePerTurn } from './flush-once-per-turn';
import { NatsBusServer } from './nats-bus-server';
import { openSpecConnection } from './testing/spec-nats';

const open = () => openSpecConnection('nats-bus-server-spec');

describe('NatsBusServer', () => {
  let serving: NatsConnection;
  let calling: NatsConnection;

  beforeAll(async () => {
    [serving, calling] = await Promise.all([open(), open()]);
    flushOncePerTurn(serving); // as every service's connection (connectNats): its subscriptions are written at the end of the turn
  });
  afterAll(async () => {
    await Promise.all([serving?.close(), calling?.close()]);
  });

  it('given a service that says it is ready, when a request is sent at that moment from another connection, then it is answered', async () => {
    // checkout serves one subject, its health request; a namespace of its own keeps this test's subject apart.
    const prefix = `busserver${randomUUID().replaceAll('-', '')}`;
    const server = new NatsBusServer({ nc: serving, prefix, service: 'checkout', metrics: new BusMetrics(new ServiceMetrics('checkout')) });
    server.addHandler('health.checkout', async () => ({ status: 'ok' }), false);

    // Sent as soon as listen calls back, as a test (or a load balancer) does once a service reports ready.
    const reply = await new Promise<unknown>((resolve, reject) =>
      server.listen((error) => {
        if (error) return reject(error);
        calling.request(`${prefix}.health.checkout`, '{}', { timeout: 5000 }).then((msg) => resolve(JSON.parse(msg.string())), reject);
      }),
    );

    expect(reply).toEqual({ ok: true, data: { status: 'ok' } });
    await server.close();
  });
});
