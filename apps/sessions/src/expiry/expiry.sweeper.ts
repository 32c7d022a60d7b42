import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Clock } from '@pp/kernel';
import { BusClient, CLOCK, CONFIG, JsonLogger } from '@pp/platform';
import { CheckoutSessionLifecycle } from '../checkout-session/checkout-session.lifecycle';
import type { SessionsConfig } from '../sessions.config';

const SWEEP_BATCH = 100;

/**
 * Expires overdue PENDING sessions found in the ledger's read model, for when
 * Redis lost the delayed job (BullMQ has no recovery of its own). Replicas
 * may sweep together: optimistic concurrency lets one expiry win per session.
 */
@Injectable()
export class ExpirySweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<void>;

  constructor(
    @Inject(CONFIG) private readonly config: SessionsConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly bus: BusClient,
    private readonly lifecycle: CheckoutSessionLifecycle,
    private readonly logger: JsonLogger,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.sweeping ??= this.sweep().finally(() => (this.sweeping = undefined));
    }, this.config.SESSION_SWEEP_INTERVAL_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }

  async sweep(): Promise<void> {
    try {
      const { sessions } = await this.bus.request('ledger.checkout-sessions.overdue.v1', {
        due_by: this.clock.now().toISOString(),
        limit: SWEEP_BATCH,
      });
      for (const overdue of sessions) await this.lifecycle.expire(overdue.session_id);
      if (sessions.length > 0) this.logger.info('expired overdue checkout sessions', { count: sessions.length });
    } catch (error) {
      this.logger.warn('expiry sweep failed', { error: error instanceof Error ? error.message : String(error) });
    }
  }
}
