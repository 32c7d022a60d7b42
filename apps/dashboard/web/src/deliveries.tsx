import type { WebhookDeliveryAttemptView } from '@pp/contracts';
import { formatDate, useI18n } from './i18n';
import { StatusBadge } from './ui';
import { Untrusted } from './untrusted-text';

/** Webhook delivery attempts: status, HTTP code, latency, error and next retry, each line as text; the error may quote the merchant's server, so it is isolated. */
export function DeliveryList({ deliveries, label, showEvent }: { deliveries: Array<WebhookDeliveryAttemptView & { event_type?: string; event_id?: string }> | null; label: string; showEvent?: boolean }) {
  const { t, language } = useI18n();
  if (deliveries === null) return <p className="muted">{t.deliveriesUnavailable}</p>;
  if (deliveries.length === 0) return <p className="muted">{t.noDeliveries}</p>;
  return (
    <ul className="deliveries" aria-label={label}>
      {deliveries.map((delivery) => (
        <li key={`${delivery.webhook_id}-${delivery.event_id ?? ''}-${delivery.attempt}`} data-delivery-status={delivery.delivery_status}>
          <StatusBadge status={delivery.delivery_status} /> {showEvent ? `${delivery.event_type} (${delivery.event_id}) · ` : `${delivery.url} · `}
          HTTP {delivery.http_status ?? '—'} · {delivery.latency_ms ?? '—'} ms
          {delivery.error_message ? <> · <Untrusted text={delivery.error_message} /></> : null}
          {delivery.next_retry_at ? ` · ${t.nextRetry} ${formatDate(delivery.next_retry_at, language)}` : ''}
          <span className="muted"> · {formatDate(delivery.created_at, language)}</span>
        </li>
      ))}
    </ul>
  );
}
