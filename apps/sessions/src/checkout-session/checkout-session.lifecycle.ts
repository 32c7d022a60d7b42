import { Inject, Injectable } from '@nestjs/common';
import { DomainError, ErrorCode, type MerchantScope } from '@pp/contracts';
import type { Clock } from '@pp/kernel';
import { type CheckoutSession, type CheckoutSessionCommand, decide, fold } from './checkout-session.decider';
import { CheckoutSessionRepository } from './checkout-session.repository';

export const CLOCK = Symbol('CLOCK');

/** Rounds of load, decide, append before a contended session gives up. */
const MAX_ATTEMPTS = 5;

/**
 * Moves an existing session on: load its stream, decide, append at the
 * version it was loaded at. When completion and expiry race, the second
 * append fails with CONCURRENCY_CONFLICT, and deciding again on the new
 * state ends in exactly one of the two.
 */
@Injectable()
export class CheckoutSessionLifecycle {
  constructor(
    private readonly repository: CheckoutSessionRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  complete(scope: MerchantScope, sessionId: string, transactionId: string | null): Promise<CheckoutSession> {
    return this.change(sessionId, scope, () => ({ kind: 'complete', now: this.clock.now(), transactionId }));
  }

  /** Expires the session if it is PENDING and due; answers its state either way. */
  expire(sessionId: string): Promise<CheckoutSession> {
    return this.change(sessionId, undefined, () => ({ kind: 'expire', now: this.clock.now() }), `expiry:${sessionId}`);
  }

  private async change(
    sessionId: string,
    scope: MerchantScope | undefined,
    command: () => CheckoutSessionCommand,
    causationId?: string,
  ): Promise<CheckoutSession> {
    for (let attempt = 1; ; attempt++) {
      const { state, version } = await this.repository.load(sessionId);
      if (!state || (scope && (state.merchant_id !== scope.merchant_id || state.livemode !== scope.livemode))) {
        throw new DomainError(ErrorCode.NotFound, 'Checkout session not found');
      }
      const events = decide(state, command());
      if (events.length === 0) return state;
      try {
        await this.repository.append(sessionId, version, events, state, { causationId });
        return fold(events, state) as CheckoutSession;
      } catch (error) {
        if (!(error instanceof DomainError && error.code === ErrorCode.ConcurrencyConflict) || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }
}
