/**
 * Posted notices the gateway did not accept (ingest-throughput.ts): an answer other than 202, or none. Such a
 * notice is never handed off, so the ingest path waits only for the others; counted by status in the row's
 * `detail.not_accepted`.
 */

/** IngestResult.not_accepted's key for posts that got no answer (the post failed or timed out). */
export const NO_ANSWER = 'no answer';

/**
 * The share of the notices posted at once that may go unaccepted before the ingest path fails: 1 %. A stray
 * refusal is counted and warned of; more means the row would not measure the ingest (a wrong INGEST_TOKEN is a
 * 401 for every post, a gateway that is down answers none), and with every notice refused nothing is waited
 * for, so the row read 0 msg/s in a run that exited 0.
 */
const MAX_NOT_ACCEPTED_SHARE = 0.01;

/** Throws when more than MAX_NOT_ACCEPTED_SHARE of `sent` notices were not accepted, naming how many got each status. */
export function checkAccepted(notAccepted: Readonly<Record<string, number>>, sent: number, what: string): void {
  const refused = Object.values(notAccepted).reduce((total, n) => total + n, 0);
  if (refused === 0 || refused <= sent * MAX_NOT_ACCEPTED_SHARE) return;
  const statuses = Object.entries(notAccepted)
    .sort(([, a], [, b]) => b - a)
    .map(([status, n]) => `${n} ${status === NO_ANSWER ? 'with no answer' : `answered ${status}`}`)
    .join(', ');
  throw new Error(`${what}: ${refused === sent ? 'all' : refused} of ${sent} posted notices not accepted (more than ${MAX_NOT_ACCEPTED_SHARE * 100} % fails the path): ${statuses}`);
}
