import { type WebhookDeliveryAttemptView, WebhookDeliveryStatus } from '@pp/contracts';

/** A successful first delivery attempt to `url`, as the webhooks service lists an event's deliveries. */
export const deliveryAttempt = (url: string, createdAt = '2030-01-01T00:00:00.000Z'): WebhookDeliveryAttemptView => ({
  webhook_id: 'wh_0000000001',
  url,
  delivery_status: WebhookDeliveryStatus.Success,
  http_status: 200,
  attempt: 1,
  retry_count: 0,
  latency_ms: 12,
  error_message: null,
  next_retry_at: null,
  created_at: createdAt,
});
