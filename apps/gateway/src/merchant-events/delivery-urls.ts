import { type WebhookDeliveryAttemptView, withUrlOrigins } from '@pp/contracts';
import type { Scope } from '../identity/scopes';

/**
 * An event's delivery attempts as a key with `scopes` may read them: the
 * endpoint URL whole for a key that manages endpoints (webhooks.write: it
 * sets the URLs and lists them anyway), only its origin for the rest, as the
 * dashboard shows them to its viewers: an events.read key sees where events
 * go, not a token the URL's path or query may hold.
 */
export function deliveriesAsSeenBy(scopes: readonly Scope[], deliveries: WebhookDeliveryAttemptView[]): WebhookDeliveryAttemptView[] {
  return scopes.includes('webhooks.write') ? deliveries : withUrlOrigins(deliveries);
}
