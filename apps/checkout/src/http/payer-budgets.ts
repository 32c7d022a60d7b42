import { type CanActivate, type ExecutionContext, HttpException, Inject, Injectable } from '@nestjs/common';
import { addressBucket, CONFIG, secondsToWait } from '@pp/platform';
import type { FastifyRequest } from 'fastify';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { CheckoutConfig } from '../checkout.config';

/** A test session's simulated payments per minute: enough to click through every outcome, not to fill the ledger. */
export const SIMULATIONS_PER_SESSION_PER_MINUTE = 10;

/** A payer request over its budget: 429 with when to try again (PayerErrorFilter). */
export class PayerBudgetSpent extends HttpException {
  constructor(readonly retryAfterSeconds: number) {
    super('Too many requests; try again shortly', 429);
  }
}

/**
 * Budgets of the payer routes (pages, status polls, the embedded frame's
 * calls, the test-mode simulator), which anyone may call without a key.
 * Every request spends its client address's budget (IPv6 per /64); each
 * simulated payment also spends its session's, since every one is a payment
 * appended to the ledger and a webhook to the merchant. The checkout app has
 * no Redis, so each replica keeps its own count: n replicas allow n times
 * the rate, still a bound.
 */
@Injectable()
export class PayerBudgets implements CanActivate {
  private readonly perAddress: RateLimiterMemory;
  private readonly simulationsPerSession = new RateLimiterMemory({ points: SIMULATIONS_PER_SESSION_PER_MINUTE, duration: 60 });

  constructor(@Inject(CONFIG) config: CheckoutConfig) {
    this.perAddress = new RateLimiterMemory({ points: config.CHECKOUT_RATE_LIMIT_PER_ADDRESS_PER_SECOND, duration: 1 });
  }

  /** As a guard on the payer controllers: request.ip is the payer's (X-Forwarded-For only from TRUSTED_PROXIES). */
  async canActivate(context: ExecutionContext): Promise<boolean> {
    await spend(this.perAddress, addressBucket(context.switchToHttp().getRequest<FastifyRequest>().ip));
    return true;
  }

  async spendSimulation(sessionId: string): Promise<void> {
    await spend(this.simulationsPerSession, sessionId);
  }
}

async function spend(limiter: RateLimiterMemory, subject: string): Promise<void> {
  const waitSeconds = await secondsToWait(limiter.consume(subject));
  if (waitSeconds !== undefined) throw new PayerBudgetSpent(waitSeconds);
}
