import { type HeldJob, HeldAttempts } from './held-attempts';

const job = (id: string): HeldJob => ({ id, promote: async () => undefined });
const LATER = 60_000;

describe('HeldAttempts', () => {
  it('given jobs held for two endpoints, when one endpoint has room, then its oldest come back first and only its own', () => {
    const held = new HeldAttempts();
    ['a1', 'a2', 'a3'].forEach((id) => held.hold('a', job(id), LATER, 0));
    held.hold('b', job('b1'), LATER, 0);
    expect(held.take('a', 2, 0).map((j) => j.id)).toEqual(['a1', 'a2']);
    expect(held.take('a', 5, 0).map((j) => j.id)).toEqual(['a3']);
    expect(held.take('a', 5, 0)).toEqual([]);
    expect(held.take('b', 0, 0)).toEqual([]);
    expect(held.take('b', 1, 0).map((j) => j.id)).toEqual(['b1']);
  });

  it('given a job that ran again at its own time, then it is not brought back', () => {
    const held = new HeldAttempts();
    held.hold('a', job('a1'), LATER, 0);
    held.hold('a', job('a2'), LATER, 0);
    held.forget('a', 'a1');
    held.forget('a', 'never-held');
    expect(held.take('a', 5, 0).map((j) => j.id)).toEqual(['a2']);
  });

  it('given a job held twice (put back again), then it comes back once', () => {
    const held = new HeldAttempts();
    held.hold('a', job('a1'), LATER, 0);
    held.hold('a', job('a1'), LATER, 0);
    expect(held.take('a', 5, 0)).toHaveLength(1);
  });

  it('offers the endpoints in turn, the one served last at the back', () => {
    const held = new HeldAttempts();
    for (const endpoint of ['a', 'b', 'c']) {
      held.hold(endpoint, job(`${endpoint}1`), LATER, 0);
      held.hold(endpoint, job(`${endpoint}2`), LATER, 0);
    }
    expect([...held.endpoints()]).toEqual(['a', 'b', 'c']);
    held.take('a', 1, 0);
    expect([...held.endpoints()]).toEqual(['b', 'c', 'a']);
  });

  it('keeps at most 4,096 jobs in all, making room by forgetting those already due: past that a job comes back only at its time', () => {
    const held = new HeldAttempts();
    for (let i = 0; i < 4096; i += 1) held.hold(`e${i % 3}`, job(`j${i}`), i < 10 ? 100 : LATER, 0);
    held.hold('e0', job('in-place-of-a-due-one'), LATER, 200);
    for (let i = 0; i < 20; i += 1) held.hold('e0', job(`over${i}`), LATER, 200);
    const taken = ['e0', 'e1', 'e2'].flatMap((endpoint) => held.take(endpoint, 5000, 0)).map((j) => j.id);
    expect(taken).toHaveLength(4096); // 10 due ones forgotten, the first 10 after them kept
    expect(taken).toContain('in-place-of-a-due-one');
    expect(taken).not.toContain('j0');
    expect(taken).not.toContain('over19');
  });

  it('given jobs already due (come back by themselves, maybe at another replica), when an endpoint has room, then they are skipped and forgotten', () => {
    const held = new HeldAttempts();
    held.hold('a', job('due'), 1000, 0);
    held.hold('a', job('not-due'), LATER, 0);
    expect(held.take('a', 1, 2000).map((j) => j.id)).toEqual(['not-due']);
    expect(held.isEmpty).toBe(true);
  });
});
