import { type HeldJob, HeldAttempts } from './held-attempts';

const job = (id: string): HeldJob => ({ id, promote: async () => undefined });

describe('HeldAttempts', () => {
  it('given jobs held for two endpoints, when one endpoint has room, then its oldest come back first and only its own', () => {
    const held = new HeldAttempts();
    ['a1', 'a2', 'a3'].forEach((id) => held.hold('a', job(id)));
    held.hold('b', job('b1'));
    expect(held.take('a', 2).map((j) => j.id)).toEqual(['a1', 'a2']);
    expect(held.take('a', 5).map((j) => j.id)).toEqual(['a3']);
    expect(held.take('a', 5)).toEqual([]);
    expect(held.take('b', 0)).toEqual([]);
    expect(held.take('b', 1).map((j) => j.id)).toEqual(['b1']);
  });

  it('given a job that ran again at its own time, then it is not brought back', () => {
    const held = new HeldAttempts();
    held.hold('a', job('a1'));
    held.hold('a', job('a2'));
    held.forget('a', 'a1');
    held.forget('a', 'never-held');
    expect(held.take('a', 5).map((j) => j.id)).toEqual(['a2']);
  });

  it('given a job held twice (put back again), then it comes back once', () => {
    const held = new HeldAttempts();
    held.hold('a', job('a1'));
    held.hold('a', job('a1'));
    expect(held.take('a', 5)).toHaveLength(1);
  });

  it('keeps at most 4,096 jobs in all: past that a job comes back only at its time', () => {
    const held = new HeldAttempts();
    for (let i = 0; i < 4100; i += 1) held.hold(`e${i % 3}`, job(`j${i}`));
    const taken = ['e0', 'e1', 'e2'].flatMap((endpoint) => held.take(endpoint, 5000));
    expect(taken).toHaveLength(4096);
    held.hold('e0', job('again'));
    expect(held.take('e0', 5).map((j) => j.id)).toEqual(['again']);
  });
});
