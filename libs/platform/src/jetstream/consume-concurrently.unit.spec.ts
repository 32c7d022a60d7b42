import type { JsMsg } from 'nats';
import { consumeConcurrently } from './consume-concurrently';

/** Enough of a JetStream message for the consumer span, and a record of how it was settled. */
function message(seq: number, settled: string[], bytes = 10): JsMsg {
  return {
    seq,
    subject: 'test.subject',
    data: new Uint8Array(bytes),
    info: { deliveryCount: 1 },
    headers: undefined,
    nak: () => settled.push(`nak ${seq}`),
  } as unknown as JsMsg;
}

async function* messagesOf(list: JsMsg[]): AsyncGenerator<JsMsg> {
  for (const msg of list) yield msg;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('consumeConcurrently', () => {
  it('given more messages than the limit, when handled, then at most the limit run at once and every message is handled', async () => {
    let running = 0;
    let most = 0;
    const handled: number[] = [];
    await consumeConcurrently(messagesOf(Array.from({ length: 10 }, (_, i) => message(i, []))), { limit: 3 }, async (msg) => {
      running += 1;
      most = Math.max(most, running);
      await tick();
      handled.push(msg.seq);
      running -= 1;
    });
    expect(most).toBe(3);
    expect(handled.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('given a resume mark, when the limit is reached, then no message is taken until only that many remain, and the next ones start together', async () => {
    const started: Array<{ seq: number; running: number }> = [];
    let running = 0;
    const releases = new Map<number, () => void>();
    const done = consumeConcurrently(
      messagesOf(Array.from({ length: 6 }, (_, i) => message(i, []))),
      { limit: 4, resumeAt: 2 },
      async (msg) => {
        running += 1;
        started.push({ seq: msg.seq, running });
        await new Promise<void>((resolve) => releases.set(msg.seq, resolve));
        running -= 1;
      },
    );
    await tick();
    expect(started.map((start) => start.seq)).toEqual([0, 1, 2, 3]);
    releases.get(0)!();
    await tick();
    expect(started).toHaveLength(4); // three still running: above the mark
    releases.get(1)!();
    await tick();
    expect(started.slice(4)).toEqual([
      { seq: 4, running: 3 },
      { seq: 5, running: 4 },
    ]);
    for (const seq of [2, 3, 4, 5]) releases.get(seq)!();
    await done;
  });

  it('given a byte budget, when large messages come, then the next waits until the bytes in flight leave it room, and one too large for the budget still runs alone', async () => {
    const started: number[] = [];
    const releases = new Map<number, () => void>();
    const sizes = [400, 400, 300, 2_000, 100];
    const done = consumeConcurrently(
      messagesOf(sizes.map((bytes, seq) => message(seq, [], bytes))),
      { limit: 10, maxBytes: 1_000 },
      async (msg) => {
        started.push(msg.seq);
        await new Promise<void>((resolve) => releases.set(msg.seq, resolve));
      },
    );
    await tick();
    expect(started).toEqual([0, 1]); // 400 + 400 + 300 would pass 1,000
    releases.get(0)!();
    await tick();
    expect(started).toEqual([0, 1, 2]); // 400 + 300
    releases.get(1)!();
    releases.get(2)!();
    await tick();
    expect(started).toEqual([0, 1, 2, 3]); // nothing else in flight: taken whatever its size
    releases.get(3)!();
    await tick();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    releases.get(4)!();
    await done;
  });

  it('given a slow message, when the next ones come, then they are handled without waiting for it', async () => {
    const order: number[] = [];
    let releaseSlow!: () => void;
    const slow = new Promise<void>((resolve) => (releaseSlow = resolve));
    const done = consumeConcurrently(messagesOf([message(1, []), message(2, []), message(3, [])]), { limit: 3 }, async (msg) => {
      if (msg.seq === 1) await slow;
      order.push(msg.seq);
    });
    await tick();
    expect(order).toEqual([2, 3]);
    releaseSlow();
    await done;
    expect(order).toEqual([2, 3, 1]);
  });

  it('given a handler that throws, when the loop goes on, then the next message is handed back and the error is thrown after the others finish', async () => {
    const settled: string[] = [];
    const finished: number[] = [];
    const run = consumeConcurrently(messagesOf([message(1, settled), message(2, settled), message(3, settled)]), { limit: 1 }, async (msg) => {
      if (msg.seq === 1) throw new Error('database away');
      finished.push(msg.seq);
    });
    await expect(run).rejects.toThrow('database away');
    expect(settled).toEqual(['nak 2']);
    expect(finished).toEqual([]);
  });
});
