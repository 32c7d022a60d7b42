/**
 * The work's outcome, or the error `expired()` makes once `ms` have passed
 * first. The work itself goes on (a DNS lookup cannot be cancelled); only
 * the wait for it ends, and the timer never outlives the race.
 */
export function withinDeadline<T>(work: Promise<T>, ms: number, expired: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(expired()), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
