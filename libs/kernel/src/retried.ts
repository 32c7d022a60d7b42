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
