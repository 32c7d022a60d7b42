import { settled } from '@pp/testing';
import { NoSlotFree, WorkSlots } from './work-slots';

/** A piece of work that ends when told. */
const held = () => {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { work: () => done, finish };
};

describe('WorkSlots', () => {
  it('given free slots, when work comes, then it starts at once', async () => {
    const slots = new WorkSlots(2, 1);
    const [a, b] = [held(), held()];
    const started: string[] = [];
    const runs = [slots.run(() => (started.push('a'), a.work())), slots.run(() => (started.push('b'), b.work()))];
    await Promise.resolve();
    expect(started).toEqual(['a', 'b']);
    a.finish();
    b.finish();
    await Promise.all(runs);
  });

  it('given every slot taken, when more work comes, then it waits in line and starts, in order, as slots free', async () => {
    const slots = new WorkSlots(1, 2);
    const [a, b, c] = [held(), held(), held()];
    const started: string[] = [];
    const runs = [a, b, c].map((piece, i) => slots.run(() => (started.push(String(i)), piece.work())));
    await Promise.resolve();
    expect(started).toEqual(['0']);
    a.finish();
    await settled(runs[0]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['0', '1']);
    b.finish();
    c.finish();
    await Promise.all(runs);
    expect(started).toEqual(['0', '1', '2']);
  });

  it('given every slot and place in line taken, when more work comes, then it is refused at once, and accepted again once the line moves', async () => {
    const slots = new WorkSlots(1, 1);
    const [a, b] = [held(), held()];
    const runs = [slots.run(a.work), slots.run(b.work)];
    await expect(slots.run(async () => 'never')).rejects.toBeInstanceOf(NoSlotFree);
    a.finish();
    b.finish();
    await Promise.all(runs);
    await expect(slots.run(async () => 'ran')).resolves.toBe('ran');
  });

  it('given work that fails, then its slot is given back', async () => {
    const slots = new WorkSlots(1, 0);
    await expect(slots.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(slots.run(async () => 'next')).resolves.toBe('next');
  });
});
