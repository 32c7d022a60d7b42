import type { WebhookDeliveryAttemptView, WebhookDeliveryStatus } from '@pp/contracts';

/** One line of an event's delivery history as Postgres answers it: a made attempt, or a delivery not attempted yet. */
export interface DeliveryAttemptRow {
  webhook_id: string;
  url: string;
  delivery_status: WebhookDeliveryStatus;
  http_status: number | null;
  attempt: number;
  retry_count: number;
  latency_ms: number | null;
  error_message: string | null;
  next_retry_at: Date | null;
  created_at: Date;
}

/** The line as GET /v1/events/:id shows it in `deliveries`. */
export const deliveryAttemptView = (row: DeliveryAttemptRow): WebhookDeliveryAttemptView => ({
  webhook_id: row.webhook_id,
  url: row.url,
  delivery_status: row.delivery_status,
  http_status: row.http_status,
  attempt: row.attempt,
  retry_count: row.retry_count,
  latency_ms: row.latency_ms,
  error_message: row.error_message,
  next_retry_at: row.next_retry_at ? new Date(row.next_retry_at).toISOString() : null,
  created_at: new Date(row.created_at).toISOString(),
});
