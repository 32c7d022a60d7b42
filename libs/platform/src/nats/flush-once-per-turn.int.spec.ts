import type { NatsConnection } from 'nats';
import { flushOncePerTurn } from './flush-once-per-turn';
import { openSpecConnection, specSubject } from './testing/spec-nats';

const subject = () => specSubject('flush');
const text = (data: Uint8Array) => Buffer.from(data).toString('utf8');

const open = () => openSpecConnection('flush-once-per-turn-spec');

/** Counts the connection's socket writes (nats.js's transport.send, one write call each). */
function countWrites(nc: NatsConnection): { count: number } {
  const transport = (nc as unknown as { protocol: { transport: { send(frame: Uint8Array): void } } }).protocol.transport;
  const counter = { count: 0 };
  const send = transport.send.bind(transport);
  transport.send = (frame) => {
    counter.count++;
    send(frame);
  };
  return counter;
}

/** Resolves with the first `count` payloads published on `on`; fails, naming what came, if they are not all there within 5 s. */
async function receive(nc: NatsConnection, on: string, count: number): Promise<() => Promise<string[]>> {
  const received: string[] = [];
  const done = new Promise<string[]>((resolve, reject) => {
    setTimeout(() => reject(new Error(`received ${JSON.stringify(received)} of ${count} messages within 5 s`)), 5000).unref();
    nc.subscribe(on, {
      max: count,
      callback: (_error, msg) => {
        received.push(text(msg.data));
        if (received.length === count) resolve(received);
      },
    });
  });
  await nc.flush();
  return () => done;
}

/**
 * Publishes each payload from its own setImmediate callback, queued together: Node runs them in one check phase,
 * microtasks between them, and defers an immediate queued during that phase to the next turn. (Timers due together
 * are not a turn: now and then, 0 ms timers set in one go fire across two turns.)
 */
function publishFromCallbacksOfOneTurn(nc: NatsConnection, on: string, payloads: string[]): Promise<void> {
  return new Promise((resolve) => {
    payloads.forEach((payload, i) =>
      setImmediate(() => {
        nc.publish(on, payload);
        if (i === payloads.length - 1) resolve();
      }),
    );
  });
}

describe('flushOncePerTurn', () => {
  let subscriber: NatsConnection;

  beforeAll(async () => {
    subscriber = await open();
  });
  afterAll(async () => {
    await subscriber?.close();
  });

  /** Three callbacks of one turn each publish one message: what the subscriber got, and the publisher's writes for them. */
  async function publishInOneTurn(publisher: NatsConnection): Promise<{ received: string[]; writes: number }> {
    const on = subject();
    const received = await receive(subscriber, on, 3);
    await publisher.flush();
    const writes = countWrites(publisher);
    await publishFromCallbacksOfOneTurn(publisher, on, ['a', 'b', 'c']);
    return { received: await received(), writes: writes.count };
  }

  it('given an ordinary connection, when three callbacks of one turn publish, then nats.js writes three times (what this module changes)', async () => {
    const publisher = await open();

    expect(await publishInOneTurn(publisher)).toEqual({ received: ['a', 'b', 'c'], writes: 3 });
    await publisher.close();
  });

  it('given a connection that flushes once per turn, when three callbacks of one turn publish, then one write carries them, in order', async () => {
    const publisher = await open();
    flushOncePerTurn(publisher);

    expect(await publishInOneTurn(publisher)).toEqual({ received: ['a', 'b', 'c'], writes: 1 });
    await publisher.close();
  });

  it('given such a connection, when a request is made, then its reply arrives (the subscription and the request are written too)', async () => {
    const publisher = await open();
    flushOncePerTurn(publisher);
    const on = subject();
    subscriber.subscribe(on, { callback: (_error, msg) => msg.respond(`echo:${text(msg.data)}`) });
    await subscriber.flush();

    const reply = await publisher.request(on, 'ping', { timeout: 5000 });

    expect(text(reply.data)).toBe('echo:ping');
    await publisher.close();
  });

  it('given such a connection, when more than its pending limit is published in one callback, then it is written before the callback ends', async () => {
    const publisher = await open();
    flushOncePerTurn(publisher);
    const on = subject();
    const limit = (publisher as unknown as { protocol: { pendingLimit: number } }).protocol.pendingLimit;
    const received = await receive(subscriber, on, 1);
    await publisher.flush();
    const writes = countWrites(publisher);

    publisher.publish(on, 'x'.repeat(limit + 1));
    const writtenAtOnce = writes.count;

    expect(writtenAtOnce).toBe(1);
    expect((await received())[0]).toHaveLength(limit + 1);
    await publisher.close();
  });

  it('given such a connection, when a message is published just before close, then it is delivered', async () => {
    const publisher = await open();
    flushOncePerTurn(publisher);
    const on = subject();
    const received = await receive(subscriber, on, 1);

    publisher.publish(on, 'last words');
    await publisher.close();

    expect(await received()).toEqual(['last words']);
  });

  it('given an object that is not a nats.js connection of this version, then it refuses to start', () => {
    expect(() => flushOncePerTurn({ protocol: {} } as unknown as NatsConnection)).toThrow(/protocol handler/);
  });
});
