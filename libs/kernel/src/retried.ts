import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Runs `run` until it succeeds, at most `attempts` times, waiting `waitMs` times the attempt's number between them
 * (a short blip, a connection lost and made again); the last failure is thrown. Only for work that may run again
 * without harm: a statement that committed nothing when it failed, or one whose repeat changes nothing more.
 */
export async function retried<T>(run: () => Promise<T>, attempts: number, waitMs: number): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= attempts) throw error;
      await sleep(waitMs * attempt);
    }
  }
}

/**
 * As `retried`, but for as long as `budgetMs` allows rather than a number of times: the waits grow by `waitMs` up to
 * a second, and no try starts once the budget is spent (the last failure is thrown). For work whose failure costs more
 * the sooner it is given up, within a bound it must not pass (a lease that others take over after).
 */
export async function retriedWithin<T>(run: () => Promise<T>, budgetMs: number, waitMs: number): Promise<T> {
  const givenUpAt = Date.now() + budgetMs;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      const wait = Math.min(waitMs * attempt, 1000);
      if (Date.now() + wait >= givenUpAt) throw error;
      await sleep(wait);
    }
  }
}
