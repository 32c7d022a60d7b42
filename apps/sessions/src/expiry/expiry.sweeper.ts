import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CONFIG } from '@pp/platform';
import type { SessionsConfig } from '../sessions.config';
import { ExpirySweepJob } from './expiry-sweep.job';
import { OverdueSessionsSweep } from './overdue-sessions.sweep';

/**
 * Each replica's own sweep every SESSION_SWEEP_INTERVAL_MS, which needs no
 * Redis: sessions still expire while Redis is away, and a Redis that lost
 * its keys gets the scheduled sweep back (ExpirySweepJob). The two go on
 * independently: while Redis is away or does not answer, the scheduling
 * call fails only at the Redis deadline (bull-options.ts), which the sweep
 * need not wait out.
 */
@Injectable()
export class ExpirySweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<unknown>;
  private scheduling?: Promise<unknown>;

  constructor(
    @Inject(CONFIG) private readonly config: SessionsConfig,
    private readonly scheduled: ExpirySweepJob,
    private readonly sweep: OverdueSessionsSweep,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.sweeping ??= this.sweep.run().finally(() => (this.sweeping = undefined));
      this.scheduling ??= this.scheduled.ensureScheduled().finally(() => (this.scheduling = undefined));
    }, this.config.SESSION_SWEEP_INTERVAL_MS);
  }

  /** Waits for a sweep under way, not for a scheduling call waiting on Redis (the queue's close ends it). */
  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }
}
