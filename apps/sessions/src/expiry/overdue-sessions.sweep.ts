import { Inject, Injectable } from '@nestjs/common';
import type { OverdueSessionsCursor } from '@pp/contracts';
import type { Clock } from '@pp/kernel';
import { BusClient, CLOCK, FailureStreak, JsonLogger } from '@pp/platform';
import { CheckoutSessionLifecycle } from '../checkout-session/checkout-session.lifecycle';
import { sweepOverduePages } from './overdue-pages';

/** Sessions asked for at once; a full page is followed by the next at once. */
const PAGE = 200;
/** Pages per sweep at most (overdue-pages.ts). */
const MAX_PAGES = 25;
/** The ledger may still be starting as this replica's first sweeps run (the stack is ready within 15 s: docs/PERFORMANCE.md). */
export const LEDGER_STARTING_MS = 15_000;

/**
 * Expires every PENDING session whose deadline has passed, as the ledger's
 * read model lists them (its partial index on the deadline of PENDING
 * sessions answers without a scan). A page is expired concurrently: the
 * ledger group-commits the appends. Sweeps that overlap (two replicas, or the
 * scheduled sweep and the process's own) are safe: optimistic concurrency
 * lets one expiry win per session, and the other decides on the EXPIRED
 * state and appends nothing. Within one process, a sweep asked for while one
 * runs joins it.
 */
@Injectable()
export class OverdueSessionsSweep {
  private running?: Promise<number>;
  /** Where the next sweep starts, when the last stopped at sessions that wholly failed (overdue-pages.ts). */
  private resumeAfter?: OverdueSessionsCursor;
  private readonly failures: FailureStreak;

  constructor(
    private readonly bus: BusClient,
    private readonly lifecycle: CheckoutSessionLifecycle,
    private readonly logger: JsonLogger,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.failures = new FailureStreak(logger, 'expiry sweep', { startingForMs: LEDGER_STARTING_MS });
  }

  /** Answers how many sessions this sweep expired; never fails (what is left, the next sweep finds). */
  run(): Promise<number> {
    this.running ??= this.failures.guard(() => this.sweep(), 0).finally(() => (this.running = undefined));
    return this.running;
  }

  private async sweep(): Promise<number> {
    const dueBy = this.clock.now().toISOString();
    const { expired, failed, firstError, resumeAfter } = await sweepOverduePages(
      async (after) => (await this.bus.request('ledger.checkout-sessions.overdue.v1', { due_by: dueBy, limit: PAGE, ...(after ? { after } : {}) })).sessions,
      async (overdue) => (await this.lifecycle.expire(overdue.session_id)).status === 'EXPIRED',
      { pageSize: PAGE, maxPages: MAX_PAGES },
      this.resumeAfter,
    );
    this.resumeAfter = resumeAfter;
    // Left PENDING and overdue: the next sweep tries them again.
    if (failed > 0) this.logger.warn('could not expire some overdue checkout sessions', { count: failed, error: String(firstError) });
    if (expired > 0) this.logger.info('expired overdue checkout sessions', { count: expired });
    return expired;
  }
}
