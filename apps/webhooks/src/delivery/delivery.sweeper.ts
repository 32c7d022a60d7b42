import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CONFIG, EveryInterval, FailureStreak, JsonLogger } from '@pp/platform';
import { EndpointRepository } from '../endpoints/endpoint.repository';
import type { WebhooksConfig } from '../webhooks.config';
import { DeliveryQueue } from './delivery.queue';
import { DeliveryRepository } from './delivery.repository';

const BATCH = 1000;

/**
 * Nothing is lost when Redis loses its data or a replica stops mid-attempt:
 * every interval each replica queues, from Postgres, the open deliveries that
 * are overdue and not leased and whose job is no longer queued; the claim
 * makes this safe when two replicas sweep at once. The same interval gives
 * a new endpoint the deliveries of events it missed while it was being
 * created, and prunes the endpoint and resend requests past the
 * Idempotency-Key retention, each task with its own failure streak, so none
 * holds the others back.
 */
@Injectable()
export class DeliverySweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly rounds: EveryInterval;
  private readonly failures: FailureStreak;
  private readonly pruneFailures: FailureStreak;
  private readonly catchUpFailures: FailureStreak;

  constructor(
    @Inject(CONFIG) private readonly config: WebhooksConfig,
    private readonly deliveries: DeliveryRepository,
    private readonly queue: DeliveryQueue,
    private readonly endpoints: EndpointRepository,
    private readonly logger: JsonLogger,
  ) {
    this.failures = new FailureStreak(logger, 'delivery sweep');
    this.pruneFailures = new FailureStreak(logger, 'idempotency requests prune');
    this.catchUpFailures = new FailureStreak(logger, 'new endpoints catch-up');
    this.rounds = new EveryInterval(config.WEBHOOK_SWEEP_INTERVAL_MS, () =>
      Promise.all([
        this.failures.guard(() => this.sweep(), undefined),
        this.catchUpFailures.guard(() => this.catchUpNewEndpoints(), undefined),
        this.pruneFailures.guard(() => this.pruneRequests(), undefined),
      ]),
    );
  }

  onApplicationBootstrap(): void {
    this.rounds.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.rounds.stop();
  }

  /** Queues the overdue deliveries whose jobs were lost (at most one batch per interval); answers how many. */
  async sweep(): Promise<number> {
    // Due for a whole interval: a queued job would normally have run by now.
    const overdue = await this.deliveries.overdue(this.config.WEBHOOK_SWEEP_INTERVAL_MS, BATCH);
    const requeued = await this.queue.requeue(overdue);
    if (requeued > 0) this.logger.info('queued overdue webhook deliveries again', { count: requeued });
    return requeued;
  }

  /** Makes and queues the deliveries new endpoints missed (at most one batch per interval); answers how many. */
  async catchUpNewEndpoints(): Promise<number> {
    const missed = await this.deliveries.catchUpNewEndpoints(BATCH);
    if (missed.length === 0) return 0;
    await this.queue.requeue(missed);
    this.logger.info('queued webhook deliveries a new endpoint missed while it was created', { count: missed.length });
    return missed.length;
  }

  /**
   * Deletes the endpoint and resend requests no repeat can use any more (at
   * most one batch of each per interval), so the tables hold a day of them,
   * not every one ever made, and a key reused after the retention can be
   * recorded anew.
   */
  async pruneRequests(): Promise<void> {
    await Promise.all([this.endpoints.pruneRequests(BATCH), this.deliveries.pruneResendRequests(BATCH)]);
  }
}
