import type { RequestOptions } from '../http/transport';
import type { CheckoutSession, SimulatePaymentParams, SimulatePaymentResult } from '../types';
import { Resource } from './resource';

/** Test mode only (a pp_live_test_ key). */
export class Sandbox extends Resource {
  /** POST /v1/sandbox/simulate-payment: pays a test session, by id or reference, with the outcome chosen. */
  simulatePayment(params: SimulatePaymentParams, options: RequestOptions = {}): Promise<SimulatePaymentResult> {
    return this.call('simulatePayment', options, { body: params });
  }

  /** POST /v1/sandbox/expire-session: a PENDING test session expires now, with checkout.session.expired. */
  expireSession(params: { sessionId: string }, options: RequestOptions = {}): Promise<CheckoutSession> {
    return this.call('expireSession', options, { body: params });
  }
}
