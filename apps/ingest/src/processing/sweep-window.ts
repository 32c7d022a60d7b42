/**
 * How far before the previous scan's mark the next one starts: covers a row
 * whose timestamp was taken before that scan but committed after it (a slow
 * transaction), and clocks that differ between the database's sessions.
 */
export const SWEEP_MARGIN_MS = 10 * 60 * 1000;

/**
 * Where a sweeper's next scan starts reading. Each scan that completes
 * leaves a mark: the oldest row it left unfinished or, when it left none,
 * the horizon it scanned up to. Every older row was finished by then, and
 * finished rows (outcomes, hand-offs) are never removed, so the next scan
 * starts a margin before the mark and reads minutes of history, not all of
 * it. A sweeper that just booted resumes from the mark a completed scan (of
 * any replica) stored, ingest.sweep_marks; with none stored, or none
 * readable, its first scan reads everything.
 */
export class SweepWindow {
  private mark: Date | null = null;
  private scannedOnce = false;

  /** The oldest timestamp the next scan must read; null: everything. */
  since(): Date | null {
    return this.mark && new Date(this.mark.getTime() - SWEEP_MARGIN_MS);
  }

  /**
   * Starts from a mark stored by an earlier completed scan (null: none
   * stored). A window that has completed a scan keeps its own mark: the
   * stored one only spares its first scan the whole history.
   */
  resume(stored: Date | null): void {
    if (!this.scannedOnce) this.mark = stored;
  }

  /**
   * After a scan that read every row up to `horizon` (by the database's
   * clock) and found `oldestUnfinished` as the oldest row still to finish,
   * or none. Call it only for a scan that completed. Answers the scan's
   * mark, for the sweeper to store.
   */
  scanned(horizon: Date, oldestUnfinished: Date | null): Date {
    this.mark = oldestUnfinished && oldestUnfinished < horizon ? oldestUnfinished : horizon;
    this.scannedOnce = true;
    return this.mark;
  }
}
