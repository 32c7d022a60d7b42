import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { FailureStreak, JsonLogger } from '@pp/platform';
import { DataSource } from 'typeorm';
import { CreationRequestRepository } from './creation-request.repository';

/** How often each gateway replica prunes, and how many records at most each time: far more than creations can add. */
const PRUNE_INTERVAL_MS = 60_000;
const BATCH = 1000;

/**
 * Keeps creation requests for the Idempotency-Key retention (24 hours, as Redis keeps its records), not for ever:
 * every interval each replica deletes a batch of those past it, as the webhooks' sweeper prunes its endpoint requests.
 * Replicas pruning at once delete disjoint rows or nothing. A failure is logged once per streak; the next round retries.
 */
@Injectable()
export class CreationRequestsPruner implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;
  private readonly requests: CreationRequestRepository;
  private readonly failures: FailureStreak;

  constructor(dataSource: DataSource, logger: JsonLogger) {
    this.requests = new CreationRequestRepository(dataSource);
    this.failures = new FailureStreak(logger, 'creation requests prune');
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.running ??= this.failures.guard(() => this.requests.prune(BATCH), 0).finally(() => (this.running = undefined));
    }, PRUNE_INTERVAL_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
