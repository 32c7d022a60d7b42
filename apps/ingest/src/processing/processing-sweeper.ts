import { Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { JsonLogger } from '@pp/platform';
import { EmailProcessor } from './email-processor';
import { OutcomeRepository } from './outcome.repository';

const SWEEP_INTERVAL_MS = 60_000;
const BATCH = 50;
/** An outcome younger than this may still be in its inline hand-off. */
const HANDOFF_GRACE_SECONDS = 60;

/**
 * Finishes what a crash or a DNS failure interrupted: processes stored e-mails
 * without an outcome and repeats hand-offs that never completed. Runs at boot
 * and then every minute.
 */
@Injectable()
export class ProcessingSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly processor: EmailProcessor,
    private readonly outcomes: OutcomeRepository,
    private readonly logger: JsonLogger,
  ) {}

  onApplicationBootstrap(): void {
    this.kick();
    this.timer = setInterval(() => this.kick(), SWEEP_INTERVAL_MS);
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
      for (const email of await this.outcomes.notHandedOff(HANDOFF_GRACE_SECONDS, BATCH)) await this.processor.handOff(email);
    } catch (error) {
      this.logger.error('processing sweep failed', error instanceof Error ? error : undefined);
    }
  }
}
