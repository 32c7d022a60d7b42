import { type CanActivate, type ExecutionContext, HttpException, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { addressBucket, CONFIG, secondsToWait } from '@pp/platform';
import type { FastifyRequest } from 'fastify';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { CheckoutConfig } from '../checkout.config';

/** A payer request over its budget: 429 with when to try again (PayerErrorFilter). */
export class PayerBudgetSpent extends HttpException {
  constructor(readonly retryAfterSeconds: number) {
    super('Too many requests; try again shortly', 429);
  }
}

const STATUS_POLL_ROUTE = 'payer-budgets:status-poll';

/**
 * Marks the route the open pages poll (once a second each): it spends the
 * address's status-poll budget, not the pages', so payers sharing one address
 * who keep their pages open do not get 429 when they load a page.
 */
export const SpendsStatusPollBudget = (): MethodDecorator => SetMetadata(STATUS_POLL_ROUTE, true);

/**
 * Budgets of the payer routes (pages, status polls, the embedded frame's
 * calls), which anyone may call without a key. Every request spends its
 * client address's budget (IPv6 per /64): the status polls one of their own,
 * every other route the pages' one. The checkout app has no Redis, so each
 * replica keeps its own count: n replicas allow n times the rate, still a bound.
 */
@Injectable()
export class PayerBudgets implements CanActivate {
  private readonly requestsPerAddress: RateLimiterMemory;
  private readonly statusPollsPerAddress: RateLimiterMemory;

  constructor(
    @Inject(CONFIG) config: CheckoutConfig,
    private readonly reflector: Reflector,
  ) {
    this.requestsPerAddress = new RateLimiterMemory({ points: config.CHECKOUT_RATE_LIMIT_PER_ADDRESS_PER_SECOND, duration: 1 });
    this.statusPollsPerAddress = new RateLimiterMemory({ points: config.CHECKOUT_STATUS_POLLS_PER_ADDRESS_PER_SECOND, duration: 1 });
  }

  /** As a guard on the payer controllers: request.ip is the payer's (X-Forwarded-For only from TRUSTED_PROXIES). */
  async canActivate(context: ExecutionContext): Promise<boolean> {
    // Chosen by the handler that matched, never by the raw URL (the router decodes percent-escapes).
    const statusPoll = this.reflector.get<boolean | undefined>(STATUS_POLL_ROUTE, context.getHandler()) === true;
    const budget = statusPoll ? this.statusPollsPerAddress : this.requestsPerAddress;
    const waitSeconds = await secondsToWait(budget.consume(addressBucket(context.switchToHttp().getRequest<FastifyRequest>().ip)));
    if (waitSeconds !== undefined) throw new PayerBudgetSpent(waitSeconds);
    return true;
  }
}
