import type { RequestOptions } from '../http/transport';
import type { CheckoutSession, CheckoutSessionCreated, CreateCheckoutSessionParams } from '../types';
import { Resource } from './resource';

export class CheckoutSessions extends Resource {
  /** POST /v1/checkout/sessions: the payer pays at `checkout_url`. */
  create(params: CreateCheckoutSessionParams, options: RequestOptions = {}): Promise<CheckoutSessionCreated> {
    return this.call('createCheckoutSession', options, { body: params });
  }

  /** GET /v1/checkout/sessions/:id */
  retrieve(id: string, options: RequestOptions = {}): Promise<CheckoutSession> {
    return this.call('retrieveCheckoutSession', options, { id });
  }
}
