import type { WebhookDeliveryAttemptView } from '../webhooks/webhook.views';

/** An event as GET /v1/events lists it (PRODUCT-RULES §2.3). */
export interface MerchantEventView {
  id: string;
  type: string;
  livemode: boolean;
  /** reference, amount, status, metadata, session_id, and payment_id for payment events. */
  data: Record<string, unknown>;
  created_at: string;
}

/** GET /v1/events/:id: the event and its webhook delivery attempts (PRODUCT-RULES §2.4). */
export interface MerchantEventDetailView extends MerchantEventView {
  deliveries: WebhookDeliveryAttemptView[];
}
