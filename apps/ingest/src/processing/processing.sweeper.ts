import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { CONFIG, FailureStreak, JsonLogger } from '@pp/platform';
import type { IngestConfig } from '../ingest.config';
import { EmailProcessor } from './email-processor';
import { OutcomeRepository, type SweepCursor, type SweepScan } from './outcome.repository';
import { SweepMarkRepository, type SweepWindowName } from './sweep-mark.repository';
import { SweepWindow } from './sweep-window';

const PAGE = 50;

/**
 * Finishes what a crash or a DNS failure interrupted: processes stored e-mails
 * without an outcome and repeats hand-offs that never completed. Runs at boot
 * and then every INGEST_SWEEP_INTERVAL_MS (a minute by default); an outcome
 * younger than one interval may still be in its inline hand-off. Each scan
 * reads only what its window (sweep-window.ts) leaves, minutes rather than
 * years of mail; each completed scan stores its window's mark
 * (ingest.sweep_marks), and a pod that starts resumes from the marks stored
 * by any replica. Only without a stored mark (a new database, or marks
 * that cannot be read) does the first scan read the whole history.
 *
 * The two scans run independently, each started at every interval unless it
 * is still running: during a DNS outage every unprocessed e-mail may take a
 * key lookup's 4 s and stays unprocessed, so that scan can last for minutes,
 * and hand-offs waiting behind it (a payment whose session is about to
 * expire) would wait as long.
 */
@Injectable()
export class ProcessingSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private readonly unprocessedScan: SweepScanRun;
  private readonly handoffScan: SweepScanRun;
  private readonly unprocessedWindow = new SweepWindow();
  private readonly handoffWindow = new SweepWindow();
  /** Whether the stored marks were read; until then each scan tries again (loadMarks). */
  private marksLoaded = false;
  /** The marks' reading under way, which both scans wait for. */
  private loadingMarks?: Promise<void>;
  /** Reading and storing the marks: a failure of its own, which the sweep goes on through. */
  private readonly markFailures: FailureStreak;

  constructor(
    private readonly processor: EmailProcessor,
    private readonly outcomes: OutcomeRepository,
    private readonly marks: SweepMarkRepository,
    logger: JsonLogger,
    @Inject(CONFIG) private readonly config: IngestConfig,
  ) {
    this.unprocessedScan = new SweepScanRun(new FailureStreak(logger, 'processing sweep'), () => this.processUnprocessed());
    this.handoffScan = new SweepScanRun(new FailureStreak(logger, 'hand-off sweep'), () => this.repeatHandOffs());
    this.markFailures = new FailureStreak(logger, 'sweep mark storage', { failedMessage: 'could not read or store a sweep mark; the sweep goes on' });
  }

  onApplicationBootstrap(): void {
    this.kick();
    this.timer = setInterval(() => this.kick(), this.config.INGEST_SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  /** Starts each scan unless it is still running. */
  private kick(): void {
    this.handoffScan.start();
    this.unprocessedScan.start();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([this.handoffScan.running, this.unprocessedScan.running]);
  }

  private async processUnprocessed(): Promise<void> {
    await this.marksRead();
    const since = this.unprocessedWindow.since();
    const scan = await this.everyPage(
      (after) => this.outcomes.unprocessed(PAGE, since, after),
      (emailId) => this.processor.processSafely(emailId),
    );
    await this.saveMark('unprocessed', this.unprocessedWindow.scanned(scan.scannedAt, scan.oldest));
  }

  private async repeatHandOffs(): Promise<void> {
    await this.marksRead();
    const graceMs = this.config.INGEST_SWEEP_INTERVAL_MS;
    const since = this.handoffWindow.since();
    const scan = await this.everyPage(
      (after) => this.outcomes.notHandedOff(graceMs / 1000, PAGE, since, after),
      (email) => this.processor.handOffSafely(email),
    );
    // Outcomes younger than the grace were not read: the window must not pass them.
    await this.saveMark('handoff', this.handoffWindow.scanned(new Date(scan.scannedAt.getTime() - graceMs), scan.oldest));
  }

  /** The stored marks, read once for both scans (again at the next scans while they cannot be read). */
  private async marksRead(): Promise<void> {
    if (this.marksLoaded) return;
    await (this.loadingMarks ??= this.loadMarks().finally(() => (this.loadingMarks = undefined)));
  }

  /**
   * Resumes the windows from the marks the last completed scans stored. When
   * they cannot be read the windows stay as they are (at boot: everything),
   * since skipping a row still to finish is worse than reading the history.
   */
  private async loadMarks(): Promise<void> {
    const stored = await this.markFailures.guard(() => this.marks.load(), null, { marks: 'load' });
    if (!stored) return;
    this.unprocessedWindow.resume(stored.get('unprocessed') ?? null);
    this.handoffWindow.resume(stored.get('handoff') ?? null);
    this.marksLoaded = true;
  }

  /** Stores a completed scan's mark; a failure only means a restarted pod reads further back. */
  private async saveMark(window: SweepWindowName, mark: Date): Promise<void> {
    await this.markFailures.guard(() => this.marks.save(window, mark), undefined, { marks: 'save', window });
  }

  /**
   * Finishes every row of a scan, page by page, each one's failure its own:
   * rows that stay unfinished (an e-mail whose DKIM key lookup keeps
   * failing, a hand-off the other side keeps refusing) must not hide the
   * ones behind them. Answers the first page's scan time and oldest row,
   * which is what the sweep window needs.
   */
  private async everyPage<T>(read: (after: SweepCursor | null) => Promise<SweepScan<T>>, finish: (item: T) => Promise<unknown>): Promise<SweepScan<T>> {
    const first = await read(null);
    for (let page = first; ; page = await read(page.last)) {
      for (const item of page.found) await finish(item);
      if (page.found.length < PAGE || !page.last) return first;
    }
  }
}

/** One of the sweeper's scans: at most one run of it at a time, its failures logged as a streak of their own. */
class SweepScanRun {
  /** The run under way, if any. */
  running?: Promise<void>;

  constructor(
    private readonly failures: FailureStreak,
    private readonly scan: () => Promise<void>,
  ) {}

  start(): void {
    this.running ??= this.failures.guard(this.scan, undefined).finally(() => (this.running = undefined));
  }
}
