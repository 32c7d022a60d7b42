/** What is kept of a job held back: enough to bring it back (BullMQ's Job has these). */
export interface HeldJob {
  readonly id?: string;
  promote(): Promise<void>;
}

/** Jobs kept in all (Job objects with their data, a kilobyte or so each); past it, one comes back only at its time. */
const KEPT = 4096;

/**
 * The jobs this replica held back for a slow endpoint, oldest first, so a
 * place of that endpoint freeing brings the next one back at once instead of
 * at the time it was put back for (SlowEndpointGate.retryAfterMs, up to an
 * attempt timeout): an endpoint that recovers is not left idle while its
 * backlog sleeps. The time stays the fallback (another replica's places, a
 * replica that stopped).
 */
export class HeldAttempts {
  private readonly byEndpoint = new Map<string, Map<string, HeldJob>>();
  private kept = 0;

  hold(endpointId: string, job: HeldJob): void {
    const jobs = this.byEndpoint.get(endpointId) ?? new Map<string, HeldJob>();
    if (job.id === undefined || jobs.has(job.id) || this.kept >= KEPT) return;
    jobs.set(job.id, job);
    this.kept += 1;
    this.byEndpoint.set(endpointId, jobs);
  }

  /** Whether any job of the endpoint is held here: asked first, so an endpoint that never had one costs a lookup. */
  holds(endpointId: string): boolean {
    return this.byEndpoint.has(endpointId);
  }

  /** The job runs again (brought back or at its time): nothing to bring back any more. */
  forget(endpointId: string, jobId: string | undefined): void {
    const jobs = this.byEndpoint.get(endpointId);
    if (!jobs || jobId === undefined || !jobs.delete(jobId)) return;
    this.kept -= 1;
    if (jobs.size === 0) this.byEndpoint.delete(endpointId);
  }

  /** Takes up to `count` of the endpoint's oldest held jobs, to bring back. */
  take(endpointId: string, count: number): HeldJob[] {
    const jobs = this.byEndpoint.get(endpointId);
    if (!jobs || count <= 0) return [];
    const taken: HeldJob[] = [];
    for (const [jobId, job] of jobs) {
      if (taken.length >= count) break;
      taken.push(job);
      jobs.delete(jobId);
      this.kept -= 1;
    }
    if (jobs.size === 0) this.byEndpoint.delete(endpointId);
    return taken;
  }
}
