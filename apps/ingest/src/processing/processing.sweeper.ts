import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { CONFIG, FailureStreak, JsonLogger } from '@pp/platform';
import type { IngestConfig } from '../ingest.config';
import { EmailProcessor } from './email-processor';
import { OutcomeRepository, type SweepCursor, type SweepScan } from './outcome.repository';
import { SweepWindow } from './sweep-window';

const PAGE = 50;

/**
 * Finishes what a crash or a DNS failure interrupted: processes stored e-mails
 * without an outcome and repeats hand-offs that never completed. Runs at boot
 * and then every INGEST_SWEEP_INTERVAL_MS (a minute by default); an outcome
 * younger than one interval may still be in its inline hand-off. The scan
 * at boot reads the whole history; later ones only what their windows
 * (sweep-window.ts) leave, minutes rather than years of mail.
 */
@Injectable()
export class ProcessingSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private readonly unprocessedWindow = new SweepWindow();
  private readonly handoffWindow = new SweepWindow();
  private readonly failures: FailureStreak;

  constructor(
    private readonly processor: EmailProcessor,
    private readonly outcomes: OutcomeRepository,
    logger: JsonLogger,
    @Inject(CONFIG) private readonly config: IngestConfig,
  ) {
    this.failures = new FailureStreak(logger, 'processing sweep');
  }

  onApplicationBootstrap(): void {
    this.kick();
    this.timer = setInterval(() => this.kick(), this.config.INGEST_SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  /** Starts a sweep unless one is still running. */
  private kick(): void {
    this.running ??= this.failures.guard(() => this.sweep(), undefined).finally(() => (this.running = undefined));
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private async sweep(): Promise<void> {
    const unprocessedSince = this.unprocessedWindow.since();
    const unprocessed = await this.everyPage(
      (after) => this.outcomes.unprocessed(PAGE, unprocessedSince, after),
      (emailId) => this.processor.processSafely(emailId),
    );
    this.unprocessedWindow.scanned(unprocessed.scannedAt, unprocessed.oldest);

    const graceMs = this.config.INGEST_SWEEP_INTERVAL_MS;
    const handoffSince = this.handoffWindow.since();
    const pending = await this.everyPage(
      (after) => this.outcomes.notHandedOff(graceMs / 1000, PAGE, handoffSince, after),
      (email) => this.processor.handOffSafely(email),
    );
    // Outcomes younger than the grace were not read: the window must not pass them.
    this.handoffWindow.scanned(new Date(pending.scannedAt.getTime() - graceMs), pending.oldest);
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
