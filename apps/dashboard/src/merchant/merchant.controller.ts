import { createHash } from 'node:crypto';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  bodyFingerprint,
  type CheckoutSessionView,
  DomainError,
  type IdempotencyToken,
  ErrorCode,
  ListPaymentsParams,
  type ListPage,
  type MerchantScope,
  PAYMENT_ID_PATTERN,
  REFUND_ID_PATTERN,
  type RefundView,
  type PaymentView,
  CHECKOUT_SESSION_STATUSES,
  type DashboardPrincipal,
} from '@pp/contracts';
import { randomToken } from '@pp/kernel';
import { BusClient } from '@pp/platform';
import type { FastifyReply } from 'fastify';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { CHECKOUT_SESSION_ID_PATTERN, PageLimitParams } from '@pp/contracts';
import { Audited, targetParam, targetResult } from '../audit/audited.interceptor';
import type { SignedInRequest } from '../auth/access.guard';
import { OptionalIdempotency } from '../http/idempotency-key';
import { notFound } from '../http/not-found';
import { parseInput } from '../http/parse-input';
import { answered, repeatNote } from '../http/repeated-answer';
import { Permit } from '../auth/route-access';
import { Principal, Scope } from '../auth/signed-in';
import { DashboardRefundBody, DashboardSimulateBody } from './merchant.bodies';
import { deliveriesOf, type EventWithDeliveries } from './event-deliveries';

/** A checkout session as the dashboard shows it: without the payer's client secret. */
export type DashboardSessionView = Omit<CheckoutSessionView, 'client_secret'>;

export interface PaymentDetailView {
  payment: PaymentView;
  session: DashboardSessionView | null;
  /** The payment's events, newest first, each with its webhook delivery attempts (null while the webhooks service does not answer). */
  events: EventWithDeliveries[];
  refunds: RefundView[];
}

/** A simulated payment and its session after it. */
export interface SimulationView {
  transaction: PaymentView;
  session: DashboardSessionView;
}

/** How many of a session's payments its detail shows (usually it has one). */
export const SESSION_PAYMENTS_SHOWN = 10;

export interface SessionDetailView {
  session: DashboardSessionView;
  /** The payments made on the session, newest first, at most SESSION_PAYMENTS_SHOWN. */
  payments: PaymentView[];
  /** Whether it has more than those: the page says only the newest are shown. */
  payments_has_more: boolean;
}

class ListSessionsParams extends PageLimitParams {
  @IsOptional()
  @IsIn(CHECKOUT_SESSION_STATUSES)
  status?: (typeof CHECKOUT_SESSION_STATUSES)[number];

  @IsOptional()
  @IsString()
  @Matches(CHECKOUT_SESSION_ID_PATTERN, { message: 'starting_after must be a checkout session id' })
  starting_after?: string;
}

const withoutSecret = ({ client_secret: _secret, ...session }: CheckoutSessionView): DashboardSessionView => session;

/**
 * A verify of a payment someone else already confirmed (another administrator, or the e-mail match) changes nothing
 * and answers the payment as it is: its entry says so, so the trail names one verifier.
 */
const verification = (payment: PaymentView, request: SignedInRequest) => ({
  ...targetParam(payment, request),
  detail: payment.verified_by === request.dashboard?.session.principal.id ? null : `already confirmed (${payment.verification_method}${payment.verified_by ? ` by ${payment.verified_by}` : ''})`,
});

/** Refunds a cancel found already CANCELLED (a second click, another user's): the reply's `changed`, kept from the client. */
const alreadyCancelled = new WeakSet<RefundView>();

/** A cancel that changed nothing is recorded as such, so the trail names one user as having cancelled. */
const cancellation = (refund: RefundView, request: SignedInRequest) => ({
  ...targetParam(refund, request),
  detail: alreadyCancelled.has(refund) ? 'already cancelled' : null,
});
const withoutMode = ({ mode: _mode, ...query }: Record<string, unknown>) => query;

/** An id that cannot exist is simply not found (no bus round trip). */
function paymentId(id: string): string {
  if (!PAYMENT_ID_PATTERN.test(id)) throw notFound('Payment');
  return id;
}

/**
 * A merchant's payments, checkout sessions and the actions on them, always in
 * the signed-in user's merchant and the mode of `?mode=` (services answer 404
 * for anything else).
 */
@Controller('api')
export class MerchantController {
  constructor(private readonly bus: BusClient) {}

  @Get('payments')
  @Permit('merchant.read')
  payments(@Query() query: Record<string, unknown>, @Scope() scope: MerchantScope): Promise<ListPage<PaymentView>> {
    const params = parseInput(ListPaymentsParams, withoutMode(query));
    return this.bus.request('ledger.payments.list.v1', { ...params, ...scope });
  }

  @Get('payments/:id')
  @Permit('merchant.read')
  async payment(@Param('id') id: string, @Scope() scope: MerchantScope, @Principal() user: DashboardPrincipal): Promise<PaymentDetailView> {
    const payment = await this.bus.request('ledger.payments.get.v1', { ...scope, payment_id: paymentId(id) });
    const [session, events, refunds] = await Promise.all([
      payment.session_id ? this.bus.request('sessions.get.v1', { ...scope, session_id: payment.session_id }).then(withoutSecret, notFoundAsNull) : null,
      this.bus.request('ledger.merchant-events.list.v1', { ...scope, payment_id: payment.id, limit: 50 }),
      this.bus.request('ledger.refunds.list.v1', { ...scope, payment_id: payment.id, limit: 50 }),
    ]);
    const withDeliveries = await Promise.all(events.data.map(async (event) => ({ ...event, deliveries: await deliveriesOf(this.bus, scope, event.id, user) })));
    return { payment, session, events: withDeliveries, refunds: refunds.data };
  }

  @Post('payments/:id/refund')
  @HttpCode(201)
  @Permit('payments.refund')
  @Audited('refund.requested', (refund: RefundView) => ({ ...targetResult(refund), detail: `${refund.reason ?? ''}${repeatNote(refund)}` || null }))
  async refund(
    @Param('id') id: string,
    @Body() body: unknown,
    @Scope() scope: MerchantScope,
    @Principal() user: DashboardPrincipal,
    @OptionalIdempotency() token: IdempotencyToken | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<RefundView> {
    const { reason } = parseInput(DashboardRefundBody, body);
    const request = { payment_id: paymentId(id), reason: reason ?? null };
    // The key travels with the command (a retry after a lost answer is answered with the refund it made, and audited):
    // its fingerprint covers the payment, which this route names in its path, not its body.
    const idempotency = token && { key: token.key, fingerprint: bodyFingerprint(request) };
    return answered(reply, await this.bus.request('refunds.request.v1', { ...scope, ...request, requested_by: user.id, idempotency }));
  }

  /** Before the operator approves it (REQUESTED only); the refunds service answers 409 past that. */
  @Post('refunds/:id/cancel')
  @HttpCode(200)
  @Permit('payments.refund')
  @Audited('refund.cancelled', cancellation)
  async cancelRefund(@Param('id') id: string, @Scope() scope: MerchantScope, @Principal() user: DashboardPrincipal): Promise<RefundView> {
    if (!REFUND_ID_PATTERN.test(id)) throw notFound('Refund');
    const { changed, ...refund } = await this.bus.request('refunds.cancel.v1', { ...scope, refund_id: id, cancelled_by: user.id });
    // A refunds service of the release before, still rolling out, does not say: taken as a change, as it was.
    if (changed === false) alreadyCancelled.add(refund);
    return refund;
  }

  @Post('payments/:id/verify')
  @HttpCode(200)
  @Permit('payments.verify')
  @Audited('payment.verified', verification)
  verify(@Param('id') id: string, @Scope() scope: MerchantScope, @Principal() user: DashboardPrincipal): Promise<PaymentView> {
    return this.bus.request('payments.verify.v1', { ...scope, payment_id: paymentId(id), verified_by: user.id });
  }

  /**
   * Test sessions only: the scope is forced to test mode, so a live session id is not found. The Idempotency-Key is
   * optional, as DESIGN fixes the route without one: with it (the web app sends one per action), a retry after a lost
   * answer is answered with the payment the first attempt made (200, X-Cache-Lookup: HIT, audited as a repeat) rather
   * than recording a second failed or under-review payment, which leave the session open, and sending its webhooks
   * again; without it, each request is a new attempt, and only the session's own state stops a second confirmation.
   */
  @Post('sandbox/simulate')
  @HttpCode(200)
  @Permit('payments.simulate')
  @Audited('payment.simulated', (simulated: SimulationView) => ({
    ...targetResult(simulated.transaction),
    livemode: false,
    detail: `${simulated.transaction.status}${repeatNote(simulated)}`,
  }))
  async simulate(
    @Body() body: unknown,
    @Scope() scope: MerchantScope,
    @OptionalIdempotency() token: IdempotencyToken | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SimulationView> {
    const input = parseInput(DashboardSimulateBody, body);
    const { transaction, session, replayed } = await this.bus.request('payments.simulate.v1', {
      merchant_id: scope.merchant_id,
      livemode: false,
      session_id: input.session_id,
      outcome: input.outcome,
      idempotency: token ?? { key: `dashboard_${randomToken(16)}`, fingerprint: createHash('sha256').update(JSON.stringify(input)).digest('hex') },
    });
    return answered<SimulationView>(reply, { transaction, session: withoutSecret(session), replayed });
  }

  @Get('checkout-sessions')
  @Permit('merchant.read')
  async checkoutSessions(@Query() query: Record<string, unknown>, @Scope() scope: MerchantScope): Promise<ListPage<DashboardSessionView>> {
    const params = parseInput(ListSessionsParams, withoutMode(query));
    const page = await this.bus.request('ledger.checkout-sessions.list.v1', { ...params, ...scope });
    return { data: page.data.map(withoutSecret), has_more: page.has_more };
  }

  @Get('checkout-sessions/:id')
  @Permit('merchant.read')
  async checkoutSession(@Param('id') id: string, @Scope() scope: MerchantScope): Promise<SessionDetailView> {
    if (!CHECKOUT_SESSION_ID_PATTERN.test(id)) throw notFound('Checkout session');
    const [session, payments] = await Promise.all([
      this.bus.request('sessions.get.v1', { ...scope, session_id: id }),
      this.bus.request('ledger.payments.list.v1', { ...scope, session_id: id, limit: SESSION_PAYMENTS_SHOWN }),
    ]);
    return { session: withoutSecret(session), payments: payments.data, payments_has_more: payments.has_more };
  }
}

function notFoundAsNull(error: unknown): null {
  if (error instanceof DomainError && error.code === ErrorCode.NotFound) return null;
  throw error;
}
