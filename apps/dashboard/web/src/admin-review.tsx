import type { AdminPaymentView, ListPage } from '@pp/contracts';
import { api, query } from './api';
import { EmailEvidence } from './email-evidence';
import { formatCad, formatDate, useI18n } from './i18n';
import { ListTable, pageHasMore } from './list-table';
import type { Location } from './router';
import { StatusBadge, useLoad } from './ui';
import { Untrusted } from './untrusted-text';

/** Payments under review across merchants, with their reasons and the e-mail they came from. */
export function AdminReviewPage({ location }: { location: Location }) {
  const { t, language } = useI18n();
  const after = location.params.get('starting_after') ?? undefined;
  const path = `/api/admin/payments${query({ status: 'REQUIRES_MANUAL_REVIEW', starting_after: after, limit: '50' })}`;
  const loaded = useLoad(() => api<ListPage<AdminPaymentView>>(path), path);
  return (
    <section aria-labelledby="review-title">
      <h1 id="review-title">{t.reviewQueue}</h1>
      <ListTable
        loaded={loaded}
        rows={(page) => page.data}
        label={t.reviewQueue}
        paging={{ location, hasMore: pageHasMore }}
        rowProps={(payment) => ({ 'data-payment-id': payment.id })}
        columns={[
          { header: t.payment, cell: (payment) => <>{payment.id} <StatusBadge status={payment.livemode ? 'LIVE' : 'TEST'} /></> },
          { header: t.merchant, cell: (payment) => payment.merchant_id },
          { header: t.amount, cell: (payment) => formatCad(payment.amount, language) },
          {
            header: t.sender,
            className: 'sender',
            cell: (payment) => (
              <>
                <Untrusted text={payment.sender_name} />
                {payment.sender_email ? <> &lt;<Untrusted text={payment.sender_email} />&gt;</> : null}
                {payment.comment ? <> — <Untrusted text={payment.comment} /></> : null}
              </>
            ),
          },
          { header: t.reviewReasons, cell: (payment) => payment.review_reasons.join(', ') },
          {
            header: t.evidence,
            cell: (payment) =>
              payment.email_id ? (
                <>
                  {payment.email_id} {payment.reference_number ? <Untrusted text={payment.reference_number} /> : null}
                  <EmailEvidence id={payment.email_id} />
                </>
              ) : (
                '—'
              ),
          },
          { header: t.created, cell: (payment) => formatDate(payment.created_at, language) },
        ]}
      />
    </section>
  );
}
