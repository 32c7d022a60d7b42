import { settled } from '@pp/testing';
import { TrailingHandOffs } from './trailing-hand-offs';

/** A hand-off the test ends when it chooses. */
function pending(): { promise: Promise<void>; end: () => void } {
  let end!: () => void;
  const promise = new Promise<void>((resolve) => (end = resolve));
  return { promise, end };
}

describe('TrailingHandOffs', () => {
  it('given fewer running than the limit, when one is added, then the answer does not wait for it', async () => {
    const trailing = new TrailingHandOffs(2);
    const first = pending();
    expect(await settled(trailing.add(first.promise))).toBe(true);
    expect(trailing.size).toBe(1);
  });

  it('given the limit reached, when one more is added, then its answer waits until that hand-off ends', async () => {
    const trailing = new TrailingHandOffs(1);
    const first = pending();
    const second = pending();
    await trailing.add(first.promise);
    const added = trailing.add(second.promise);
    expect(await settled(added)).toBe(false);
    first.end();
    expect(await settled(added)).toBe(false);
    second.end();
    expect(await settled(added)).toBe(true);
    expect(trailing.size).toBe(0);
  });

  it('given the limit reached and the sender\'s answer due soon, when one more is added, then its answer waits only until then, and the hand-off goes on', async () => {
    const trailing = new TrailingHandOffs(1);
    const first = pending();
    const second = pending();
    await trailing.add(first.promise);
    const added = trailing.add(second.promise, 30);
    expect(await settled(added)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await settled(added)).toBe(true);
    expect(trailing.size).toBe(2);
    first.end();
    second.end();
    await trailing.drain();
    expect(trailing.size).toBe(0);
  });

  it('given hand-offs running, when drained, then it resolves only once all of them have ended', async () => {
    const trailing = new TrailingHandOffs(4);
    const first = pending();
    const second = pending();
    await trailing.add(first.promise);
    await trailing.add(second.promise);
    const drained = trailing.drain();
    first.end();
    expect(await settled(drained)).toBe(false);
    second.end();
    expect(await settled(drained)).toBe(true);
  });

  it('given nothing running, when drained, then it resolves at once', async () => {
    expect(await settled(new TrailingHandOffs(1).drain())).toBe(true);
  });
});
