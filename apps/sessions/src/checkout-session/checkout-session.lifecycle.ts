import { Injectable } from '@nestjs/common';
import { DomainError, ErrorCode, type MerchantScope } from '@pp/contracts';
import { CommandRunner } from '@pp/platform';
import { type CheckoutSession, type CheckoutSessionCommand, checkoutSessionAggregate, decide, fold } from './checkout-session.decider';

/**
 * Expires sessions. When an expiry races a payment's completion of the session,
 * the second append fails with CONCURRENCY_CONFLICT, and the runner's next round
 * decides on the new state, ending in exactly one of the two.
 */
@Injectable()
export class CheckoutSessionLifecycle {
  constructor(private readonly runner: CommandRunner) {}

  /** Expires the session if it is PENDING and due; answers its state either way. */
  expire(sessionId: string): Promise<CheckoutSession> {
    return this.change(sessionId, undefined, (now) => ({ kind: 'expire', now }), `expiry:${sessionId}`);
  }

  /** The sandbox's "expire now" for a test session of this merchant (PENDING ones only; others answer as they are). */
  expireEarly(scope: MerchantScope, sessionId: string): Promise<CheckoutSession> {
    return this.change(sessionId, scope, (now) => ({ kind: 'expire', now, early: true }), `sandbox-expiry:${sessionId}`);
  }

  private change(
    sessionId: string,
    scope: MerchantScope | undefined,
    command: (now: Date) => CheckoutSessionCommand,
    causationId?: string,
  ): Promise<CheckoutSession> {
    return this.runner.run(async ({ now, load }) => {
      const session = await load(checkoutSessionAggregate, sessionId);
      const state = session.state;
      if (!state || (scope && (state.merchant_id !== scope.merchant_id || state.livemode !== scope.livemode))) {
        throw new DomainError(ErrorCode.NotFound, 'Checkout session not found');
      }
      const events = decide(state, command(now()));
      if (events.length === 0) return { append: false, answer: state };
      return { append: [session.append(events)], scope: { merchant_id: state.merchant_id, livemode: state.livemode }, options: { causationId }, answer: () => fold(events, state) as CheckoutSession };
    });
  }
}
