import { WakeSignal } from './wake-signal';

describe('WakeSignal', () => {
  it('given a sleeper, when signalled, then it wakes at once', async () => {
    const wake = new WakeSignal();
    const started = Date.now();
    const sleeping = wake.sleep(5_000);
    wake.signal();
    await sleeping;
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('given a signal while nobody sleeps, when the next sleep starts, then it returns at once, and only that one', async () => {
    const wake = new WakeSignal();
    wake.signal();
    const started = Date.now();
    await wake.sleep(5_000);
    expect(Date.now() - started).toBeLessThan(1_000);
    const second = Date.now();
    await wake.sleep(50);
    expect(Date.now() - second).toBeGreaterThanOrEqual(45);
  });

  it('given no signal, when sleeping, then it waits the time out', async () => {
    const wake = new WakeSignal();
    const started = Date.now();
    await wake.sleep(50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });
});
