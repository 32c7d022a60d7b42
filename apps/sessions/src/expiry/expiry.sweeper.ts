import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CONFIG, EveryInterval } from '@pp/platform';
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
  private readonly sweeping: EveryInterval;
  private readonly scheduling: EveryInterval;

  constructor(@Inject(CONFIG) config: SessionsConfig, scheduled: ExpirySweepJob, sweep: OverdueSessionsSweep) {
    this.sweeping = new EveryInterval(config.SESSION_SWEEP_INTERVAL_MS, () => sweep.run());
    this.scheduling = new EveryInterval(config.SESSION_SWEEP_INTERVAL_MS, () => scheduled.ensureScheduled());
  }

  onApplicationBootstrap(): void {
    this.sweeping.start();
    this.scheduling.start();
  }

  /** Waits for a sweep under way, not for a scheduling call waiting on Redis (the queue's close ends it). */
  onApplicationShutdown(): Promise<void> {
    void this.scheduling.stop();
    return this.sweeping.stop();
  }
}
