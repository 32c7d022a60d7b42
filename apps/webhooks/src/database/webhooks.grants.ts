import type { TableGrants } from '@pp/platform';

/**
 * What the webhooks role (pp_webhooks) may do in schema webhooks. Endpoints
 * are soft-deleted, deliveries and attempts move through their statuses in
 * place, and the stored event bodies (the exact signed bytes) never change.
 * Endpoint and resend requests are never changed, only deleted once past the
 * Idempotency-Key retention (EndpointRepository.pruneRequests,
 * DeliveryRepository.pruneResendRequests). Endpoint scopes are only inserted
 * and locked (FOR UPDATE needs UPDATE).
 */
export const WebhooksGrants: TableGrants = {
  endpoints: ['SELECT', 'INSERT', 'UPDATE'],
  endpoint_requests: ['SELECT', 'INSERT', 'DELETE'],
  endpoint_scopes: ['SELECT', 'INSERT', 'UPDATE'],
  events: ['SELECT', 'INSERT'],
  deliveries: ['SELECT', 'INSERT', 'UPDATE'],
  delivery_attempts: ['SELECT', 'INSERT', 'UPDATE'],
  resend_requests: ['SELECT', 'INSERT', 'DELETE'],
};
