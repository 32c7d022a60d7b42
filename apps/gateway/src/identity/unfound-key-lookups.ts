import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, KEY_LOOKUPS_REFUSED, ServiceMetrics } from '@pp/platform';
import type { Counter } from 'prom-client';
import type { GatewayConfig } from '../gateway.config';
import { ApiError } from '../http/api-error';
import { SERVICE_RETRY_AFTER_SECONDS } from '../http/error-response.filter';
import { NoSlotFree, WorkSlots } from './work-slots';

/** Lookups that may wait for each slot: at about a millisecond a lookup, a burst of new keys (a replica just started) waits a little rather than being refused. */
export const LINE_PER_SLOT = 20;

/**
 * How many lookups of keys this replica has not found before may run at once, and wait: a quarter of the replica's
 * Postgres connections (DATABASE_POOL_SIZE), at least one, so the other three quarters stay free for requests with
 * keys it knows and for everything else the gateway reads and writes.
 */
export function unfoundKeyLookupLimits(poolSize: number): { slots: number; line: number } {
  const slots = Math.max(1, Math.floor(poolSize / 4));
  return { slots, line: slots * LINE_PER_SLOT };
}

/**
 * A bound, per gateway replica, on the Postgres lookups of API keys it has not found before (FailedAuthenticationBudget
 * knows the ones it found). Each address may fail only so often, but many addresses may each send guesses: past the
 * slots and the line, such a key is answered 503 with Retry-After at once, without a lookup. Keys the replica found
 * before are never held behind them.
 *
 * Why a cap on lookups at once and not a cache of keys not found: guessed keys are random and never repeat, so such a
 * cache would miss every one of them and bound nothing; the same unknown key from one address already shares one
 * lookup and one charge. It would also have to be emptied on every gateway whenever a key is created (revocations
 * reach them by NOTIFY; creations do not need to today), or it could refuse a new key. The cap bounds the database's
 * share whatever the number of addresses, and has no state to keep right.
 *
 * The refusal is an ApiError, not a DomainError: ErrorResponseFilter logs every service-unavailable DomainError, and a
 * flood must not become a flood of log lines. It is counted instead (pp_gateway_key_lookups_refused_total).
 */
@Injectable()
export class UnfoundKeyLookups {
  private readonly slots: WorkSlots;
  private readonly refused: Counter;

  constructor(@Inject(CONFIG) config: GatewayConfig, metrics: ServiceMetrics) {
    const { slots, line } = unfoundKeyLookupLimits(config.DATABASE_POOL_SIZE);
    this.slots = new WorkSlots(slots, line);
    this.refused = metrics.counter(KEY_LOOKUPS_REFUSED, { startAtZero: {} });
  }

  run<T>(lookup: () => Promise<T>): Promise<T> {
    return this.slots.run(lookup).catch((error: unknown) => {
      if (!(error instanceof NoSlotFree)) throw error;
      this.refused.inc();
      throw new ApiError(503, 'Service unavailable', { 'Retry-After': String(SERVICE_RETRY_AFTER_SECONDS) });
    });
  }
}
