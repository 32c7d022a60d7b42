import type { WebhookDeliveryAttemptView } from '@pp/contracts';

/** One line of an event's delivery history as Postgres answers it (a made attempt, or a delivery not attempted yet): the view with its times as dates. */
export type DeliveryAttemptRow = Omit<WebhookDeliveryAttemptView, 'next_retry_at' | 'created_at'> & {
  next_retry_at: Date | null;
  created_at: Date;
};

/** The line as GET /v1/events/:id shows it in `deliveries`. */
export const deliveryAttemptView = ({ next_retry_at, created_at, ...row }: DeliveryAttemptRow): WebhookDeliveryAttemptView => ({
  ...row,
  next_retry_at: next_retry_at ? new Date(next_retry_at).toISOString() : null,
  created_at: new Date(created_at).toISOString(),
});
