import { FAILURE_REMINDER_MS, FailureStreak } from './failure-streak';

describe('FailureStreak: the log of a task that runs again and again', () => {
  let now: number;
  let lines: Array<{ level: 'warn' | 'info'; msg: string; fields: Record<string, unknown> }>;
  let streak: FailureStreak;

  beforeEach(() => {
    now = Date.parse('2026-12-02T12:00:00.000Z');
    lines = [];
    const logger = {
      warn: (msg: unknown, fields?: unknown) => lines.push({ level: 'warn', msg: String(msg), fields: fields as Record<string, unknown> }),
      info: (msg: unknown, fields?: unknown) => lines.push({ level: 'info', msg: String(msg), fields: fields as Record<string, unknown> }),
    };
    streak = new FailureStreak(logger, 'delivery sweep', { now: () => now });
  });

  it('given no failure, when the task succeeds, then nothing is logged', () => {
    streak.succeeded();
    expect(lines).toEqual([]);
  });

  it('given the task works, when it fails, then the failure is warned about at once, with its error and fields', () => {
    streak.failed(new Error('Command timed out'), { stream: 's' });
    expect(lines).toEqual([{ level: 'warn', msg: 'delivery sweep failed', fields: { stream: 's', error: 'Command timed out' } }]);
  });

  it('given it has failed, when it fails again within a minute, then nothing more is logged; after a minute, one reminder with the count and duration', () => {
    streak.failed(new Error('first'));
    for (let i = 0; i < 59; i++) {
      now += 1000;
      streak.failed(new Error('again'));
    }
    expect(lines).toHaveLength(1);

    now += 1000;
    streak.failed('still down');
    expect(lines[1]).toEqual({
      level: 'warn',
      msg: 'delivery sweep still failing',
      fields: { error: 'still down', failures: 61, failing_for_ms: FAILURE_REMINDER_MS },
    });
    now += 1000;
    streak.failed('still down');
    expect(lines).toHaveLength(2);
  });

  it('given a streak of failures, when the task succeeds, then its end is logged once at info, and a later failure starts a new streak', () => {
    streak.failed(new Error('down'));
    now += 2500;
    streak.failed(new Error('down'));
    streak.succeeded();
    streak.succeeded();
    expect(lines.slice(1)).toEqual([{ level: 'info', msg: 'delivery sweep works again', fields: { failures: 2, failed_for_ms: 2500 } }]);

    streak.failed(new Error('down again'));
    expect(lines[2]).toMatchObject({ level: 'warn', msg: 'delivery sweep failed', fields: { error: 'down again' } });
  });

  it('given a message of its own for the first failure, then that message is used', () => {
    const waiting = new FailureStreak({ warn: (msg: unknown) => lines.push({ level: 'warn', msg: String(msg), fields: {} }), info: () => undefined }, 'merchant events reader', { failedMessage: 'merchant events not readable yet; retrying' });
    waiting.failed(new Error('stream not found'));
    expect(lines[0].msg).toBe('merchant events not readable yet; retrying');
  });

  it('given a guarded round, when it fails, then the fallback is answered and the failure logged; when the next succeeds, its result is answered and the recovery logged', async () => {
    expect(await streak.guard(() => Promise.reject(new Error('Redis away')), 0, { deliveries: 3 })).toBe(0);
    expect(await streak.guard(() => Promise.resolve(7), 0)).toBe(7);
    expect(lines).toEqual([
      { level: 'warn', msg: 'delivery sweep failed', fields: { deliveries: 3, error: 'Redis away' } },
      { level: 'info', msg: 'delivery sweep works again', fields: { failures: 1, failed_for_ms: 0 } },
    ]);
  });

  describe('given a task whose neighbours are still starting', () => {
    let starting: FailureStreak;
    beforeEach(() => {
      const logger = {
        warn: (msg: unknown, fields?: unknown) => lines.push({ level: 'warn', msg: String(msg), fields: fields as Record<string, unknown> }),
        info: (msg: unknown, fields?: unknown) => lines.push({ level: 'info', msg: String(msg), fields: fields as Record<string, unknown> }),
      };
      starting = new FailureStreak(logger, 'expiry sweep', { startingForMs: 15_000, now: () => now });
    });

    it('when it fails while they start and then works, then nothing is logged', () => {
      starting.failed(new Error('No service is answering ledger.checkout-sessions.overdue.v1'));
      now += 500;
      starting.failed(new Error('No service is answering ledger.checkout-sessions.overdue.v1'));
      starting.succeeded();
      expect(lines).toEqual([]);
    });

    it('when it goes on failing past their start, then the failure is warned about then, with how many times and for how long', () => {
      starting.failed(new Error('down'));
      now += 15_000;
      starting.failed(new Error('still down'));
      expect(lines).toEqual([{ level: 'warn', msg: 'expiry sweep failed', fields: { error: 'still down', failures: 2, failing_for_ms: 15_000 } }]);
      now += 1000;
      starting.failed(new Error('still down'));
      starting.succeeded();
      expect(lines[1]).toEqual({ level: 'info', msg: 'expiry sweep works again', fields: { failures: 3, failed_for_ms: 16_000 } });
    });

    it('when it first fails after their start, then it is warned about at once', () => {
      now += 15_000;
      starting.failed(new Error('down'));
      expect(lines).toEqual([{ level: 'warn', msg: 'expiry sweep failed', fields: { error: 'down' } }]);
    });
  });
});
