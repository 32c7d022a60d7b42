import { type Checkpoint, StoredCheckpoint } from './stored-checkpoint';

const at = (position: number): Checkpoint => ({ transactionId: '1000', position: String(position) });

describe('StoredCheckpoint', () => {
  it('given pages published within the interval, when it moves on, then it stores nothing until the interval has passed', async () => {
    const stored: Checkpoint[] = [];
    const checkpoint = new StoredCheckpoint(at(0), async (pair) => void stored.push(pair), 10_000);
    await checkpoint.moveTo(at(1));
    await checkpoint.moveTo(at(2));
    expect(stored).toEqual([]);
    expect(checkpoint.current).toEqual(at(2));
    expect(checkpoint.dueInMs()).toBeGreaterThan(9_000);
  });

  it('given the interval has passed, when it moves on, then it stores the new pair at once', async () => {
    const stored: Checkpoint[] = [];
    const checkpoint = new StoredCheckpoint(at(0), async (pair) => void stored.push(pair), 20);
    await new Promise((resolve) => setTimeout(resolve, 25));
    await checkpoint.moveTo(at(3));
    expect(stored).toEqual([at(3)]);
    expect(checkpoint.dueInMs()).toBe(Infinity);
  });

  it('given a pair not yet stored, when saved (the publisher stops), then it is stored once, and nothing when nothing moved', async () => {
    const stored: Checkpoint[] = [];
    const checkpoint = new StoredCheckpoint(at(0), async (pair) => void stored.push(pair), 10_000);
    await checkpoint.save();
    expect(stored).toEqual([]);
    await checkpoint.moveTo(at(4));
    await checkpoint.save();
    await checkpoint.save();
    expect(stored).toEqual([at(4)]);
  });

  it('given a store that fails, when saved, then the pair stays due', async () => {
    const checkpoint = new StoredCheckpoint(at(0), async () => Promise.reject(new Error('database away')), 0);
    await expect(checkpoint.moveTo(at(5))).rejects.toThrow('database away');
    expect(checkpoint.dueInMs()).toBe(0);
  });
});
