import { setTimeout as sleep } from 'node:timers/promises';
import { EveryInterval } from './every-interval';

describe('EveryInterval', () => {
  it('given rounds slower than the interval, then a round starts only when the one before has ended', async () => {
    let inFlight = 0;
    let most = 0;
    let rounds = 0;
    const every = new EveryInterval(5, async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await sleep(30);
      inFlight -= 1;
      rounds += 1;
    });
    every.start();
    await sleep(120);
    await every.stop();
    expect(most).toBe(1);
    expect(rounds).toBeGreaterThanOrEqual(2);
  });

  it('given a round under way, when stopped, then stop waits for it and no round starts after', async () => {
    let ended = 0;
    let started = 0;
    const every = new EveryInterval(5, async () => {
      started += 1;
      await sleep(40);
      ended += 1;
    });
    every.start();
    await sleep(15);
    await every.stop();
    expect(ended).toBe(started);
    const after = started;
    await sleep(30);
    expect(started).toBe(after);
  });
});
