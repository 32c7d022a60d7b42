import { createHash, timingSafeEqual } from 'node:crypto';
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { DomainError, ErrorCode, PayerSessionQuery, type PayerSessionView, ResolveClientSecretQuery, sessionIdOfClientSecret } from '@pp/contracts';
import type { Clock } from '@pp/kernel';
import { AggregateStore, CLOCK, Handles } from '@pp/platform';
import { checkoutSessionAggregate } from '../checkout-session/checkout-session.decider';
import { payerSessionView } from './payer-session.view';

const notFound = () => new DomainError(ErrorCode.NotFound, 'Checkout session not found');

/**
 * The payer-facing reads of the hosted and embedded checkout. They fold the
 * session's own stream, which names its merchant and mode, so a lookup by
 * session id alone needs no index.
 */
@Controller()
export class PayerSessionHandler {
  constructor(
    private readonly aggregates: AggregateStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Handles('checkout-page.session.v1')
  async session(@Payload() query: PayerSessionQuery): Promise<PayerSessionView> {
    const { state } = await this.aggregates.load(checkoutSessionAggregate, query.session_id);
    if (!state) throw notFound();
    return payerSessionView(state, this.clock.now());
  }

  @Handles('checkout-page.resolve-client-secret.v1')
  async resolve(@Payload() query: ResolveClientSecretQuery): Promise<PayerSessionView> {
    const sessionId = sessionIdOfClientSecret(query.client_secret);
    if (!sessionId) throw notFound();
    const { state } = await this.aggregates.load(checkoutSessionAggregate, sessionId);
    // A key of the other mode is told what a stranger is (404): modes are kept apart as merchants are.
    if (!state || state.merchant_id !== query.merchant_id || state.livemode !== query.livemode || !sameSecret(query.client_secret, state.client_secret)) {
      throw notFound();
    }
    return payerSessionView(state, this.clock.now());
  }
}

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** Compares digests, so the time taken says nothing about how much of the secret matched. */
const sameSecret = (presented: string, expected: string): boolean => timingSafeEqual(digest(presented), digest(expected));
