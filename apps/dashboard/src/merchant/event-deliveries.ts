import { type DashboardPrincipal, DomainError, ErrorCode, type MerchantEventView, type MerchantScope, type WebhookDeliveryAttemptView } from '@pp/contracts';
import type { BusClient } from '@pp/platform';
import { webhookUrlsFor } from './webhook-url';

/** A merchant event as the dashboard shows it: with its delivery attempts, or null while the webhooks service does not answer. */
export type EventWithDeliveries = MerchantEventView & { deliveries: WebhookDeliveryAttemptView[] | null };

/**
 * An event's delivery attempts as `user` may read them, or null while the webhooks service does not answer: the
 * payment page and the event's detail still show the rest, and say the deliveries cannot be shown. Any other failure
 * (a wrong scope's NOT_FOUND) is the route's.
 */
export function deliveriesOf(bus: BusClient, scope: MerchantScope, eventId: string, user: DashboardPrincipal): Promise<WebhookDeliveryAttemptView[] | null> {
  return bus.request('webhooks.deliveries.list.v1', { ...scope, event_id: eventId }).then(
    ({ deliveries }) => webhookUrlsFor(user.role, deliveries),
    (error: unknown) => {
      if (error instanceof DomainError && error.code === ErrorCode.ServiceUnavailable) return null;
      throw error;
    },
  );
}
