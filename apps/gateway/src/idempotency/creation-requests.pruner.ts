import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { EveryInterval, FailureStreak, JsonLogger } from '@pp/platform';
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
  private readonly pruning: EveryInterval;

  constructor(dataSource: DataSource, logger: JsonLogger) {
    const requests = new CreationRequestRepository(dataSource);
    const failures = new FailureStreak(logger, 'creation requests prune');
    this.pruning = new EveryInterval(PRUNE_INTERVAL_MS, () => failures.guard(() => requests.prune(BATCH), 0));
  }

  onApplicationBootstrap(): void {
    this.pruning.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.pruning.stop();
  }
}
