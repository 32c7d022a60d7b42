import type { WebhookEndpointStatus } from '@pp/contracts';

/** What the rule needs to know of the endpoint a delivery goes to. */
export interface DeliveryTarget {
  status: WebhookEndpointStatus;
  disabled_reason: string | null;
  deleted_at: Date | null;
}

/**
 * Why a claimed attempt must not be sent, or null when it may: a deleted or
 * disabled endpoint gets nothing more, and the reason closes its delivery
 * (it is the attempt's error message).
 */
export function notSentBecause(endpoint: DeliveryTarget): string | null {
  if (endpoint.deleted_at) return 'not sent: the endpoint was deleted';
  if (endpoint.status !== 'enabled') return `not sent: the endpoint is disabled (${endpoint.disabled_reason ?? 'disabled'})`;
  return null;
}
