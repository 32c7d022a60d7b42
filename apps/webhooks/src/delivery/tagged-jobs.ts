/**
 * The latest job queued under a tagged id (`<delivery>.<attempt>.<tag>`: a
 * resend's, a sweep's) for each attempt, as far as this process queued it,
 * so that a sweep can ask whether that job will still run. At most `limit`
 * attempts are remembered; past it the longest-remembered is forgotten (its
 * attempt is most likely made by then, and forgetting costs one no-op job).
 */
export class TaggedJobs {
  private readonly latestByAttempt = new Map<string, string>();

  constructor(private readonly limit: number) {}

  remember(attemptJobId: string, taggedJobId: string): void {
    // Deleted first, so a re-remembered attempt counts as the newest (Maps keep insertion order).
    this.latestByAttempt.delete(attemptJobId);
    this.latestByAttempt.set(attemptJobId, taggedJobId);
    if (this.latestByAttempt.size > this.limit) this.latestByAttempt.delete(this.latestByAttempt.keys().next().value!);
  }

  latest(attemptJobId: string): string | undefined {
    return this.latestByAttempt.get(attemptJobId);
  }
}
