/** The longest delay Node's timers take: past it (or for NaN, or below 0) Node fires after 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * `ms` as a timer can wait it: a longer wait is cut to MAX_TIMER_MS (about 24.8 days), which Node would otherwise
 * turn into an immediate timeout; a negative or NaN one is 0, a deadline already past.
 */
export const timerDelay = (ms: number): number => (ms > 0 ? Math.min(ms, MAX_TIMER_MS) : 0);

/**
 * The work's outcome, or the error `expired()` makes once `ms` have passed
 * first. The work itself goes on (a DNS lookup cannot be cancelled); only
 * the wait for it ends, and the timer never outlives the race.
 */
export function withinDeadline<T>(work: Promise<T>, ms: number, expired: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(expired()), timerDelay(ms));
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
