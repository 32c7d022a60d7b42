import { type ClientOptions, Transport } from './http/transport';
import { CheckoutSessions } from './resources/checkout-sessions.resource';
import { Events } from './resources/events.resource';
import { Payments } from './resources/payments.resource';
import { Refunds } from './resources/refunds.resource';
import { Sandbox } from './resources/sandbox.resource';
import { WebhookEndpoints } from './resources/webhook-endpoints.resource';
import { signTestPayload, verify } from './webhooks/verify-webhook';

/** Webhook helpers; they need no key, so they are also exported on their own. */
export const webhooks = { verify, signTestPayload } as const;

/**
 * The API client. Every POST carries an Idempotency-Key (yours or a fresh
 * UUID) that its retries reuse; network errors, 409 "still in progress", 429
 * and 5xx are retried with backoff and jitter, honouring Retry-After.
 *
 *   const checkout = new CheckoutClient({ apiKey: process.env.PP_API_KEY!, apiBase: 'https://…' }); // a test key may leave apiBase out
 *   const session = await checkout.checkoutSessions.create({ amount: 2500, currency: 'cad', ... });
 */
export class CheckoutClient {
  readonly checkoutSessions: CheckoutSessions;
  readonly payments: Payments;
  readonly events: Events;
  readonly refunds: Refunds;
  readonly webhookEndpoints: WebhookEndpoints;
  readonly sandbox: Sandbox;
  readonly webhooks = webhooks;
  /** The gateway this client talks to. */
  readonly apiBase: string;

  constructor(options: ClientOptions) {
    const transport = new Transport(options);
    this.apiBase = transport.apiBase;
    this.checkoutSessions = new CheckoutSessions(transport);
    this.payments = new Payments(transport);
    this.events = new Events(transport);
    this.refunds = new Refunds(transport);
    this.webhookEndpoints = new WebhookEndpoints(transport);
    this.sandbox = new Sandbox(transport);
  }
}
