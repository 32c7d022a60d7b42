import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { Socket } from 'node:net';
import Redis from 'ioredis';
import { writeOncePerTurn } from './write-once-per-turn';

// The launcher's Redis (libs/platform cannot import @pp/testing, which reads the same variable).
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const key = () => `write-once-per-turn-spec:${randomUUID()}`;

/** Counts the writes on the connection's socket (Node calls `_write` for one chunk, `_writev` for several buffered ones). */
function countWrites(redis: Redis): { count: number } {
  const socket = redis.stream as Socket & { _write: (...args: unknown[]) => void; _writev: (...args: unknown[]) => void };
  const counter = { count: 0 };
  for (const method of ['_write', '_writev'] as const) {
    const original = socket[method].bind(socket);
    socket[method] = (...args: unknown[]) => {
      counter.count++;
      original(...args);
    };
  }
  return counter;
}

/**
 * Sends INCR on `on` from each of `count` setImmediate callbacks queued together: Node runs them in one check
 * phase, microtasks between them, and defers an immediate queued during that phase to the next turn. (Timers
 * due together are not a turn: about 3 in 1,000 times, three 0 ms timers set in one go fired across two turns.)
 */
function incrementFromCallbacksOfOneTurn(redis: Redis, on: string, count: number): Promise<number[]> {
  return Promise.all(Array.from({ length: count }, () => new Promise<number>((resolve, reject) => setImmediate(() => redis.incr(on).then(resolve, reject)))));
}

describe('writeOncePerTurn', () => {
  const opened: Redis[] = [];
  const open = async (patched: boolean): Promise<Redis> => {
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    opened.push(redis);
    if (patched) writeOncePerTurn(redis);
    await redis.connect();
    return redis;
  };
  // quit() resolves once Redis closes the socket; disconnect() would leave ioredis's 2 s destroy timer behind.
  afterAll(() => Promise.all(opened.filter((redis) => redis.status !== 'end').map((redis) => redis.quit())));

  /** Three callbacks of one turn each send a command: their answers, and the socket's writes for them. */
  async function incrementInOneTurn(redis: Redis): Promise<{ answers: number[]; writes: number }> {
    const on = key();
    await redis.ping();
    const writes = countWrites(redis);
    const answers = await incrementFromCallbacksOfOneTurn(redis, on, 3);
    const written = writes.count;
    await redis.del(on);
    return { answers, writes: written };
  }

  it('given an ordinary connection, when three callbacks of one turn send a command each, then ioredis writes three times (what this module changes)', async () => {
    expect(await incrementInOneTurn(await open(false))).toEqual({ answers: [1, 2, 3], writes: 3 });
  });

  it('given a connection that writes once per turn, when three callbacks of one turn send a command each, then one write carries them, in order', async () => {
    expect(await incrementInOneTurn(await open(true))).toEqual({ answers: [1, 2, 3], writes: 1 });
  });

  it('given such a connection, when commands come in later turns, then each turn is written and answered', async () => {
    const redis = await open(true);
    const on = key();

    for (let turn = 1; turn <= 3; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(await redis.incr(on)).toBe(turn);
    }
    await redis.del(on);
  });

  it('given such a connection not yet connected, when a command is sent, then it waits in the offline queue and is answered once connected', async () => {
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    opened.push(redis);
    writeOncePerTurn(redis);

    const answered = redis.echo('queued'); // connects, as a lazy connection does on its first command

    expect(redis.status).not.toBe('ready');
    await expect(answered).resolves.toBe('queued');
  });

  it('given such a connection, when a transaction and plain commands are sent in one turn, then each is answered as written', async () => {
    const redis = await open(true);
    const on = key();

    const [transaction, plain] = await Promise.all([redis.multi().set(on, 'a').get(on).exec(), redis.append(on, 'b')]);

    expect(transaction).toEqual([
      [null, 'OK'],
      [null, 'a'],
    ]);
    expect(plain).toBe(2);
    expect(await redis.get(on)).toBe('ab');
    await redis.del(on);
  });

  it('given such a connection, when a command is sent just before quit, then it is answered and the connection closes', async () => {
    const redis = await open(true);
    const on = key();

    const ended = once(redis, 'end');

    const set = redis.set(on, 'last', 'EX', 60);
    await redis.quit();

    await expect(set).resolves.toBe('OK');
    await ended;
    const reader = await open(false);
    expect(await reader.get(on)).toBe('last');
    await reader.del(on);
  });
});
