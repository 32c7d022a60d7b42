import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { CONFIG, JsonLogger } from '@pp/platform';
import type { IngestConfig } from '../ingest.config';
import { EmailProcessor } from './email-processor';
import { OutcomeRepository } from './outcome.repository';

const BATCH = 50;

/**
 * Finishes what a crash or a DNS failure interrupted: processes stored e-mails
 * without an outcome and repeats hand-offs that never completed. Runs at boot
 * and then every INGEST_SWEEP_INTERVAL_MS (a minute by default); an outcome
 * younger than one interval may still be in its inline hand-off.
 */
@Injectable()
export class ProcessingSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly processor: EmailProcessor,
    private readonly outcomes: OutcomeRepository,
    private readonly logger: JsonLogger,
    @Inject(CONFIG) private readonly config: IngestConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.kick();
    this.timer = setInterval(() => this.kick(), this.config.INGEST_SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  /** Starts a sweep unless one is still running. */
  private kick(): void {
    this.running ??= this.sweep().finally(() => (this.running = undefined));
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  async sweep(): Promise<void> {
    try {
      for (const emailId of await this.outcomes.unprocessed(BATCH)) await this.processor.processSafely(emailId);
      for (const email of await this.outcomes.notHandedOff(this.config.INGEST_SWEEP_INTERVAL_MS / 1000, BATCH)) await this.processor.handOff(email);
    } catch (error) {
      this.logger.error('processing sweep failed', error instanceof Error ? error : undefined);
    }
  }
}
