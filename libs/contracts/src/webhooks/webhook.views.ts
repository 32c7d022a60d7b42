export type WebhookEndpointStatus = 'enabled' | 'disabled';

/** An endpoint as GET /v1/webhook_endpoints shows it (never with its secret). */
export interface WebhookEndpointView {
  id: string;
  url: string;
  description: string | null;
  enabled_events: string[];
  livemode: boolean;
  status: WebhookEndpointStatus;
  /** Why a disabled endpoint was disabled (410 Gone, or failing continuously for days). */
  disabled_reason: string | null;
  created_at: string;
}

/** Answer of create and rotate-secret: the only times the secret is shown. */
export interface WebhookEndpointWithSecretView extends WebhookEndpointView {
  secret: string;
  /** After a rotation: until when the previous secret still signs deliveries (ISO 8601), else null. */
  previous_secret_expires_at: string | null;
}

/**
 * Wire values of delivery_status (PRODUCT-RULES §D3): PENDING (queued or in
 * flight), SUCCESS (2xx), FAILED (will retry), EXHAUSTED (no more automatic
 * attempts). Do not rename.
 */
export enum WebhookDeliveryStatus {
  Pending = 'PENDING',
  Success = 'SUCCESS',
  Failed = 'FAILED',
  Exhausted = 'EXHAUSTED',
}

/** One entry of `deliveries` on GET /v1/events/:id (PRODUCT-RULES §2.4). A delivery not yet attempted shows as attempt 0, PENDING. */
export interface WebhookDeliveryAttemptView {
  webhook_id: string;
  url: string;
  delivery_status: WebhookDeliveryStatus;
  http_status: number | null;
  attempt: number;
  retry_count: number;
  latency_ms: number | null;
  error_message: string | null;
  next_retry_at: string | null;
  created_at: string;
}

export interface ResendEventReply {
  event_id: string;
  /** The endpoints that get a new attempt now. */
  webhook_ids: string[];
}

/** One line of an endpoint's recent deliveries: an attempt (or a delivery not attempted yet) with the event it carried. */
export interface WebhookEndpointDeliveryView extends WebhookDeliveryAttemptView {
  event_id: string;
  event_type: string;
}
