/**
 * The places of a replica for attempts it makes at once, without the queue
 * (WEBHOOK_DELIVERY_CONCURRENCY): taken when attempts are claimed, given back
 * when they end. The event consumer waits for half of them to be free before
 * it records more events (whenHalfFree), so it takes a backlog no faster than
 * this replica makes the first attempts, and they start here instead of each
 * going through the queue (docs/ARCHITECTURE.md, Webhook delivery).
 */
export class AttemptPlaces {
  private taken = 0;
  private closed = false;
  private readonly waiters = new Set<() => void>();

  constructor(private readonly size: number) {}

  /** Places free now; none once closed. */
  get free(): number {
    return this.closed ? 0 : Math.max(0, this.size - this.taken);
  }

  take(count: number): void {
    this.taken += count;
  }

  /** Gives places back; once half are free, every waiter goes on. */
  release(count: number): void {
    this.taken -= count;
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
  }

  private halfFree(): boolean {
    return this.free * 2 >= this.size;
  }

  private wakeAll(): void {
    for (const wake of this.waiters) wake();
  }
}
