/**
 * How far before the previous scan's mark the next one starts: covers a row
 * whose timestamp was taken before that scan but committed after it (a slow
 * transaction), and clocks that differ between the database's sessions.
 */
export const SWEEP_MARGIN_MS = 10 * 60 * 1000;

/**
 * Where a sweeper's next scan starts reading. The first scan after boot
 * reads everything. Each later one starts a margin before the oldest row
 * the previous scan left unfinished, or, when it left none, before the
 * horizon it scanned up to: every older row was finished by then, and
 * finished rows (outcomes, hand-offs) are never removed. So a scan reads
 * minutes of history, not all of it.
 */
export class SweepWindow {
  private start: Date | null = null;

  /** The oldest timestamp the next scan must read; null: everything. */
  since(): Date | null {
    return this.start;
  }

  /**
   * After a scan that read every row up to `horizon` (by the database's
   * clock) and found `oldestUnfinished` as the oldest row still to finish,
   * or none. Call it only for a scan that completed.
   */
  scanned(horizon: Date, oldestUnfinished: Date | null): void {
    const mark = oldestUnfinished && oldestUnfinished < horizon ? oldestUnfinished : horizon;
    this.start = new Date(mark.getTime() - SWEEP_MARGIN_MS);
  }
}
