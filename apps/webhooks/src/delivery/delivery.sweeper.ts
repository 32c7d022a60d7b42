import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CONFIG, JsonLogger } from '@pp/platform';
import type { WebhooksConfig } from '../webhooks.config';
import { DeliveryQueue } from './delivery.queue';
import { DeliveryRepository } from './delivery.repository';

const BATCH = 500;

/**
 * Nothing is lost when Redis loses its data or a replica stops mid-attempt:
 * every interval each replica queues, from Postgres, the open deliveries that
 * are overdue and not leased. Job ids make this a no-op for attempts that are
 * still queued; the claim makes it safe when two replicas sweep at once.
 */
@Injectable()
export class DeliverySweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    @Inject(CONFIG) private readonly config: WebhooksConfig,
    private readonly deliveries: DeliveryRepository,
    private readonly queue: DeliveryQueue,
    private readonly logger: JsonLogger,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.running ??= this.sweep()
        .then(() => undefined)
        .catch((error: Error) => this.logger.warn('delivery sweep failed', { error: error.message }))
        .finally(() => (this.running = undefined));
    }, this.config.WEBHOOK_SWEEP_INTERVAL_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Queues overdue deliveries; answers how many it found. */
  async sweep(): Promise<number> {
    let found = 0;
    for (;;) {
      // Due for a whole interval: a queued job would have run by now.
      const overdue = await this.deliveries.overdue(this.config.WEBHOOK_SWEEP_INTERVAL_MS, BATCH);
      await this.queue.enqueue(overdue);
      found += overdue.length;
      if (overdue.length < BATCH || found >= BATCH * 20) break;
    }
    if (found > 0) this.logger.info('queued overdue webhook deliveries', { count: found });
    return found;
  }
}
