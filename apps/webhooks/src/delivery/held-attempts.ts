/** What is kept of a job held back: enough to bring it back (BullMQ's Job has these). */
export interface HeldJob {
  readonly id?: string;
  promote(): Promise<void>;
}

interface Held {
  job: HeldJob;
  /** When it comes back by itself (epoch ms). */
  until: number;
}

/** Jobs kept in all (Job objects with their data, a kilobyte or so each); past it, one comes back only at its time. */
const KEPT = 4096;

/**
 * The jobs this replica held back for slow endpoints, oldest first, so a
 * place freeing brings one back at once instead of at the time it was put
 * back for (SlowEndpointGate.retryAfterMs, up to an attempt timeout): an
 * endpoint that recovers is not left idle while its backlog sleeps. The
 * time stays the fallback (another replica's places, a replica that
 * stopped). Endpoints are served in turn, whichever endpoint's attempt
 * freed the place: the one served last goes to the back, so those the slow
 * half holds back all get their places.
 */
export class HeldAttempts {
  private readonly byEndpoint = new Map<string, Map<string, Held>>();
  private kept = 0;

  hold(endpointId: string, job: HeldJob, until: number, now: number): void {
    if (job.id === undefined || this.byEndpoint.get(endpointId)?.has(job.id)) return;
    if (this.kept >= KEPT) this.dropDue(now);
    if (this.kept >= KEPT) return;
    const jobs = this.byEndpoint.get(endpointId) ?? new Map<string, Held>();
    jobs.set(job.id, { job, until });
    this.kept += 1;
    this.byEndpoint.set(endpointId, jobs);
  }

  /** Whether no job is held here: asked first, so a replica that holds none pays nothing when an attempt ends. */
  get isEmpty(): boolean {
    return this.kept === 0;
  }

  /** The job runs again (brought back or at its time): nothing to bring back any more. */
  forget(endpointId: string, jobId: string | undefined): void {
    const jobs = this.byEndpoint.get(endpointId);
    if (!jobs || jobId === undefined || !jobs.delete(jobId)) return;
    this.kept -= 1;
    if (jobs.size === 0) this.byEndpoint.delete(endpointId);
  }

  /** Whether the endpoint has jobs held here. */
  holds(endpointId: string): boolean {
    return this.byEndpoint.has(endpointId);
  }

  /** Endpoints with jobs held here, the one served longest ago first. */
  endpoints(): IterableIterator<string> {
    return this.byEndpoint.keys();
  }

  /**
   * Takes up to `count` of the endpoint's oldest held jobs not yet due, to
   * bring back (those due came back by themselves, here or at another
   * replica, and are forgotten); the endpoint goes to the back of the turn.
   */
  take(endpointId: string, count: number, now: number): HeldJob[] {
    const jobs = this.byEndpoint.get(endpointId);
    if (!jobs || count <= 0) return [];
    const taken: HeldJob[] = [];
    for (const [jobId, { job, until }] of jobs) {
      if (taken.length >= count) break;
      if (until > now) taken.push(job);
      jobs.delete(jobId);
      this.kept -= 1;
    }
    this.byEndpoint.delete(endpointId);
    if (jobs.size > 0) this.byEndpoint.set(endpointId, jobs);
    return taken;
  }

  /** Forgets the jobs already due: they came back by themselves, here or at another replica. */
  private dropDue(now: number): void {
    for (const [endpointId, jobs] of this.byEndpoint) {
      for (const [jobId, { until }] of jobs) {
        if (until > now) continue;
        jobs.delete(jobId);
        this.kept -= 1;
      }
      if (jobs.size === 0) this.byEndpoint.delete(endpointId);
    }
  }
}
