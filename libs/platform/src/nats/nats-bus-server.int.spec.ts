import { randomUUID } from 'node:crypto';
import type { NatsConnection } from 'nats';
import { BusMetrics } from '../metrics/bus-metrics';
import { ServiceMetrics } from '../metrics/service-metrics';
import { buildHeaders } from './bus-headers';
import { flushOncePerTurn } from './flush-once-per-turn';
import { ANSWER_DRAIN_MS, NatsBusServer } from './nats-bus-server';
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

  it('given a request whose reply subject is not a caller’s inbox, or that has none, then the handler never runs and nothing is published there', async () => {
    const prefix = `busserver${randomUUID().replaceAll('-', '')}`;
    const server = new NatsBusServer({ nc: serving, prefix, service: 'checkout', metrics: new BusMetrics(new ServiceMetrics('checkout')) });
    let handled = 0;
    server.addHandler('health.checkout', async () => ({ status: `ok ${++handled}` }), false);
    await new Promise<void>((resolve, reject) => server.listen((error) => (error ? reject(error) : resolve())));

    // Another service's subject as the reply: the server would let checkout publish there (allow_responses).
    const elsewhere = `${prefix}.health.ledger`;
    const published: string[] = [];
    const watch = calling.subscribe(elsewhere, { callback: (_error, msg) => published.push(msg.string()) });
    await calling.flush();
    calling.publish(`${prefix}.health.checkout`, '{}', { reply: elsewhere });
    // And no reply subject at all, as a stream set to republish into the subject would send it.
    calling.publish(`${prefix}.health.checkout`, '{}');
    // A request from the caller's own inbox afterwards is answered, so the misdirected one has been seen by then.
    const answered = await calling.request(`${prefix}.health.checkout`, '{}', { timeout: 5000 });

    expect(JSON.parse(answered.string())).toEqual({ ok: true, data: { status: 'ok 1' } });
    await calling.flush();
    expect(published).toEqual([]);
    expect(handled).toBe(1);
    watch.unsubscribe();
    await server.close();
  });

  it('given a subject the server does not let the service subscribe to, when it listens, then listen fails naming the subject, and the server still closes', async () => {
    // Two tokens in front of the subject: the harness's identity may subscribe to the registry's subjects under one only.
    const prefix = `busserver${randomUUID().replaceAll('-', '')}.unpermitted`;
    const server = new NatsBusServer({ nc: serving, prefix, service: 'checkout', metrics: new BusMetrics(new ServiceMetrics('checkout')) });
    server.addHandler('health.checkout', async () => ({ status: 'ok' }), false);

    const outcome = await new Promise<Error | undefined>((resolve) => server.listen(resolve));

    expect(outcome).toBeInstanceOf(Error);
    expect(outcome?.message).toContain(`subscription to ${prefix}.health.checkout refused: 'Permissions Violation for Subscription to "${prefix}.health.checkout"`);
    await expect(server.subscribed()).rejects.toThrow(outcome!.message);
    await expect(server.close()).resolves.toBeUndefined(); // nats.js closed the refused subscription: nothing to drain
  });

  /** A checkout server on a namespace of its own, serving `handler` as its health request, and a request to it. */
  async function servingHealth(handler: () => Promise<unknown>) {
    const prefix = `busserver${randomUUID().replaceAll('-', '')}`;
    const server = new NatsBusServer({ nc: serving, prefix, service: 'checkout', metrics: new BusMetrics(new ServiceMetrics('checkout')) });
    server.addHandler('health.checkout', handler, false);
    await new Promise<void>((resolve, reject) => server.listen((error) => (error ? reject(error) : resolve())));
    const request = async () => JSON.parse((await calling.request(`${prefix}.health.checkout`, '{}', { timeout: 5000 })).string()) as unknown;
    return { server, request, prefix };
  }

  it('given an answer larger than the server takes, then the caller gets a fault at once and the service goes on answering', async () => {
    let size = serving.info!.max_payload + 1;
    const { server, request } = await servingHealth(async () => {
      const answer = { status: 'x'.repeat(size) };
      size = 2;
      return answer;
    });
    expect(await request()).toEqual({ ok: false, error: { code: 'INTERNAL', message: 'Internal error: the answer could not be sent' } });
    expect(await request()).toEqual({ ok: true, data: { status: 'xx' } });
    await server.close();
  });

  it('given a request under way, when the server closes, then it is still answered before close resolves', async () => {
    let started!: () => void;
    let finish!: (value: unknown) => void;
    const handlerStarted = new Promise<void>((resolve) => (started = resolve));
    const { server, request } = await servingHealth(() => {
      started();
      return new Promise((resolve) => (finish = resolve));
    });
    const answer = request();
    await handlerStarted;
    let closed = false;
    const closing = server.close().then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(false);
    finish({ status: 'finished' });
    expect(await answer).toEqual({ ok: true, data: { status: 'finished' } });
    await closing;
  });

  it('given a request whose caller waits longer than the least drain, when the server closes, then close waits for its answer until that caller’s deadline', async () => {
    let finishedAt = 0;
    const { server, prefix } = await servingHealth(
      () =>
        new Promise((resolve) =>
          setTimeout(() => {
            finishedAt = Date.now();
            resolve({ status: 'late' });
          }, ANSWER_DRAIN_MS + 1_000),
        ),
    );
    const answer = calling.request(`${prefix}.health.checkout`, '{}', { timeout: 20_000, headers: buildHeaders({ timeoutMs: 20_000 }) });
    await new Promise((resolve) => setTimeout(resolve, 200)); // the request is under way
    let closedAt = 0;
    const closing = server.close().then(() => (closedAt = Date.now()));
    expect(JSON.parse((await answer).string())).toEqual({ ok: true, data: { status: 'late' } });
    await closing;
    // Past the least drain, close still waited for the handler's answer.
    expect(closedAt).toBeGreaterThanOrEqual(finishedAt);
  }, 20_000);
});
