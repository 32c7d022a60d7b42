/**
 * The places of a replica for its attempts in flight
 * (WEBHOOK_DELIVERY_CONCURRENCY), those it makes at once and those the
 * queue's worker makes alike: taken when attempts are claimed (a queued one
 * before its claim, takeOne), given back when they end. One budget for both,
 * so the attempts in flight, and the connections they hold, never exceed
 * the setting (webhook-sender.ts sizes its agent by it). The event consumer
 * waits for half of them to be free before it records more events
 * (whenHalfFree), so it takes a backlog no faster than this replica makes
 * the first attempts, and they start here instead of each going through the
 * queue (docs/ARCHITECTURE.md, Webhook delivery).
 */
export class AttemptPlaces {
  private taken = 0;
  private closed = false;
  private readonly waiters = new Set<() => void>();
  /** Queued attempts waiting for a place, first come first served (takeOne). */
  private readonly queued: Array<(taken: boolean) => void> = [];

  constructor(private readonly size: number) {}

  /** Places free now; none once closed. */
  get free(): number {
    return this.closed ? 0 : Math.max(0, this.size - this.taken);
  }

  take(count: number): void {
    this.taken += count;
  }

  /**
   * One place for a queued attempt: at once if one is free, else the first
   * one given back, before anything else sees it free (older work first: the
   * consumer, seeing none free, waits or queues what it records). Answers
   * false, taking none, once closed. Waiting cannot deadlock: every place is
   * held by an attempt under way, which ends within its timeout and waits for
   * nothing queued.
   */
  takeOne(): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    if (this.free > 0) {
      this.taken += 1;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => this.queued.push(resolve));
  }

  /** Gives places back, to the queued attempts waiting first; once half are free, every waiter goes on. */
  release(count: number): void {
    this.taken -= count;
    while (this.free > 0 && this.queued.length > 0) {
      this.taken += 1;
      this.queued.shift()!(true);
    }
    if (count > 0 && this.halfFree()) this.wakeAll();
  }

  /**
   * Resolves once half the places are free, or after `maxWaitMs`. Half, because
   * the events recorded together need places for all their endpoints; bounded,
   * because while slow endpoints hold every place new events must still be
   * recorded (their attempts then go to the queue).
   */
  whenHalfFree(maxWaitMs: number): Promise<void> {
    if (this.closed || this.halfFree()) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, maxWaitMs);
      this.waiters.add(wake);
    });
  }

  /** No place is free from now on, and nobody waits for one (shutting down: what is left goes to the queue). */
  close(): void {
    this.closed = true;
    this.wakeAll();
    for (const resolve of this.queued.splice(0)) resolve(false);
  }

  private halfFree(): boolean {
    return this.free * 2 >= this.size;
  }

  private wakeAll(): void {
    for (const wake of this.waiters) wake();
  }
}
