import { timedCheck } from '../health/health.service';
import { DOWN_AFTER_FAILURES, ReaderHealth } from './reader-health';

describe('ReaderHealth: a durable reader in the health answer', () => {
  let warnings: string[];
  let reader: ReaderHealth;

  beforeEach(() => {
    warnings = [];
    reader = new ReaderHealth({ warn: (msg: unknown) => warnings.push(String(msg)), info: () => undefined }, 'merchant events');
  });

  const answer = () => timedCheck(reader.check, 1000);
  const failTimes = (count: number) => {
    for (let i = 0; i < count; i++) reader.failed(new Error('stream not found'), {});
  };

  it('given a reader that has not read yet, then it is down, whatever the count of failures', async () => {
    expect(await answer()).toMatchObject({ status: 'down', error: 'not reading merchant events yet: the durable consumer is not bound' });
    failTimes(1);
    expect(await answer()).toMatchObject({ status: 'down', error: 'not reading merchant events yet: the durable consumer is not bound' });
  });

  it('given a reader that reads, when fewer rounds than DOWN_AFTER_FAILURES fail in a row, then it stays up; at that many, down until it reads again', async () => {
    reader.reading({});
    failTimes(DOWN_AFTER_FAILURES - 1);
    expect((await answer()).status).toBe('up');

    failTimes(1);
    expect(await answer()).toMatchObject({ status: 'down', error: `not reading merchant events: ${DOWN_AFTER_FAILURES} attempts in a row failed` });

    reader.reading({});
    expect((await answer()).status).toBe('up');
  });

  it('logs a streak as FailureStreak does: one warning at its start, not one a round', () => {
    failTimes(DOWN_AFTER_FAILURES + 2);
    expect(warnings).toEqual(['merchant events not readable yet; retrying']);
  });

  it('settles its first round at the first outcome, failed or read', async () => {
    reader.failed(new Error('stream not found'), {});
    await expect(reader.firstRound).resolves.toBeUndefined();
  });
});
