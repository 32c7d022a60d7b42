/**
 * Hand-offs that go on after their sender has its answer (posted notices
 * are answered once their outcome is recorded). Bounded: while `limit` run,
 * the next one's answer waits for that hand-off itself, so a sender faster
 * than the payments behind it is slowed to their pace instead of piling up
 * work in memory. Shutdown waits for the ones running; one that a crash
 * cuts short is repeated by the processing sweeper.
 */
export class TrailingHandOffs {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly limit: number) {}

  get size(): number {
    return this.running.size;
  }

  /**
   * Starts the hand-off; resolves at once while under the limit, otherwise when it ends or `waitAtMostMs` has
   * passed (the sender's answer is due: the hand-off goes on, as under the limit). It must not reject.
   */
  async add(handOff: Promise<void>, waitAtMostMs = Infinity): Promise<void> {
    const tracked = handOff.finally(() => this.running.delete(tracked));
    this.running.add(tracked);
    if (this.running.size <= this.limit) return;
    if (!Number.isFinite(waitAtMostMs)) return tracked;
    let timer: NodeJS.Timeout | undefined;
    const answerDue = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, waitAtMostMs))));
    await Promise.race([tracked, answerDue]).finally(() => clearTimeout(timer));
  }

  /** Resolves when every hand-off running now has ended. */
  async drain(): Promise<void> {
    await Promise.all([...this.running]);
  }
}
