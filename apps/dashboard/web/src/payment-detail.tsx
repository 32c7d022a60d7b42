import { useState } from 'react';
import type { DashboardPrincipal, MerchantEventView, RefundView, PaymentView, WebhookDeliveryAttemptView } from '@pp/contracts';
import { api, query } from './api';
import { formatCad, formatDate, reasonLabel, useI18n } from './i18n';
import { useIdempotentPost } from './idempotent-post';
import { DeliveryList } from './deliveries';
import { AppLink, inMode } from './list-table';
import { may } from './permissions';
import { refundOffer } from './refund-request.policy';
import { ActionButton, States, StatusBadge, useLoad } from './ui';
import { Untrusted } from './untrusted-text';
import { VerifyPayment } from './verify-payment';

interface PaymentDetail {
  payment: PaymentView;
  session: { id: string; reference: string; memo: string; status: string; amount: number; expires_at: string; metadata: Record<string, unknown> | null } | null;
  /** Each event's delivery attempts; null while the webhooks service does not answer. */
  events: Array<MerchantEventView & { deliveries: WebhookDeliveryAttemptView[] | null }>;
  refunds: RefundView[];
}

/** Every field of a payment, its session, the timeline of its events, and the refund and verification actions. */
export function PaymentDetailPage({ id, mode, user }: { id: string; mode: string; user: DashboardPrincipal }) {
  const { t, language } = useI18n();
  const path = `/api/payments/${encodeURIComponent(id)}${query({ mode })}`;
  const loaded = useLoad(() => api<PaymentDetail>(path), path);
  const [reason, setReason] = useState('');
  const mayRefund = may(user, 'payments.refund');
  // A retry of a request whose answer was lost is answered with the refund it made, and audited, never refused as a second.
  const requestRefund = useIdempotentPost();
  return (
    <section aria-labelledby="payment-title">
      <h1 id="payment-title">{t.payment} {id}</h1>
      <States loaded={loaded}>
        {({ payment, session, events, refunds }) => (
          <>
            <dl className="fields">
              <dt>{t.status}</dt>
              <dd><StatusBadge status={payment.status} /></dd>
              <dt>{t.amount}</dt>
              <dd>{formatCad(payment.amount, language)}</dd>
              <dt>{t.sender}</dt>
              {/* The payer's own words (their name, address and comment), each isolated: none can turn what stands beside it around. */}
              <dd className="sender">
                <Untrusted text={payment.sender_name} />
                {payment.sender_email ? <> &lt;<Untrusted text={payment.sender_email} />&gt;</> : null}
              </dd>
              <dt>{t.method}</dt>
              <dd>{payment.verification_method}</dd>
              <dt>{t.created}</dt>
              <dd>{formatDate(payment.created_at, language)}</dd>
              {payment.comment ? (<><dt>{t.comment}</dt><dd className="comment"><Untrusted text={payment.comment} /></dd></>) : null}
              {payment.review_reasons.length > 0 ? (
                <>
                  <dt>{t.reviewReasons}</dt>
                  <dd className="review-reasons" data-review-reasons={payment.review_reasons.join(' ')}>{payment.review_reasons.map((reason) => reasonLabel(t, reason)).join('; ')}</dd>
                </>
              ) : null}
            </dl>
            {session ? (
              <>
                <h2>{t.session}</h2>
                <dl className="fields">
                  <dt>{t.id}</dt>
                  <dd><AppLink to={inMode(`/checkout-sessions/${session.id}`, mode)}>{session.id}</AppLink></dd>
                  <dt>{t.reference}</dt>
                  <dd className="reference">{session.reference}</dd>
                  <dt>{t.memo}</dt>
                  <dd>{session.memo}</dd>
                  <dt>{t.amount}</dt>
                  <dd className="session-amount">{formatCad(session.amount, language)}</dd>
                  <dt>{t.status}</dt>
                  <dd><StatusBadge status={session.status} /></dd>
                  <dt>{t.metadata}</dt>
                  <dd><pre className="metadata">{JSON.stringify(session.metadata ?? {}, null, 2)}</pre></dd>
                </dl>
              </>
            ) : null}
            {payment.status === 'REQUIRES_MANUAL_REVIEW' && may(user, 'payments.verify') ? <VerifyPayment payment={payment} session={session} mode={mode} done={loaded.reload} /> : null}
            <h2>{t.events}</h2>
            <ol className="timeline" aria-label={t.events}>
              {events.map((event) => (
                <li key={event.id} data-event-type={event.type}>
                  <strong>{event.type}</strong> <span className="muted">{event.id} · {formatDate(event.created_at, language)}</span>
                  <DeliveryList deliveries={event.deliveries} label={`${t.deliveries} ${event.type}`} />
                </li>
              ))}
            </ol>
            <h2>{t.refunds}</h2>
            <ul className="refunds">
              {refunds.map((refund) => (
                <li key={refund.id}>
                  {refund.id} <StatusBadge status={refund.status} /> {refund.reason ? <>— <Untrusted text={refund.reason} /></> : null}{' '}
                  {mayRefund && refund.status === 'REQUESTED' ? (
                    <ActionButton label={t.cancelRefund} of={refund.id} run={() => api(`/api/refunds/${refund.id}/cancel${query({ mode })}`, { method: 'POST' }).then(loaded.reload)} />
                  ) : null}
                </li>
              ))}
            </ul>
            {/* While one of its refunds is open, a second request would only be refused (409): the note says why there is no form. */}
            {mayRefund && refundOffer(payment, refunds) === 'in_progress' ? <p className="refund-in-progress">{t.refundInProgress}</p> : null}
            {mayRefund && refundOffer(payment, refunds) === 'request' ? (
              <div className="refund-form">
                <label>
                  {t.reason}
                  <input value={reason} maxLength={1000} onChange={(event) => setReason(event.target.value)} />
                </label>
                <ActionButton
                  label={t.requestRefund}
                  run={() => requestRefund(`/api/payments/${payment.id}/refund${query({ mode })}`, reason.trim() ? { reason } : {}).then(loaded.reload)}
                />
              </div>
            ) : null}
          </>
        )}
      </States>
    </section>
  );
}
