import type { AdminPaymentView, ListPage } from '@pp/contracts';
import { api, query } from './api';
import { formatCad, formatDate, useI18n } from './i18n';
import { type Location, navigate, withParams } from './router';
import { States, StatusBadge, useLoad } from './ui';

/** Payments under review across merchants, with their reasons and the e-mail they came from. */
export function AdminReviewPage({ location }: { location: Location }) {
  const { t, language } = useI18n();
  const after = location.params.get('starting_after') ?? undefined;
  const path = `/api/admin/payments${query({ status: 'REQUIRES_MANUAL_REVIEW', starting_after: after, limit: '50' })}`;
  const loaded = useLoad(() => api<ListPage<AdminPaymentView>>(path), path);
  return (
    <section aria-labelledby="review-title">
      <h1 id="review-title">{t.reviewQueue}</h1>
      <States loaded={loaded} isEmpty={(page) => page.data.length === 0}>
        {(page) => (
          <>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t.payment}</th>
                  <th scope="col">{t.merchant}</th>
                  <th scope="col">{t.amount}</th>
                  <th scope="col">{t.sender}</th>
                  <th scope="col">{t.reviewReasons}</th>
                  <th scope="col">E-mail</th>
                  <th scope="col">{t.created}</th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((payment) => (
                  <tr key={payment.id} data-payment-id={payment.id}>
                    <td>{payment.id} <StatusBadge status={payment.livemode ? 'LIVE' : 'TEST'} /></td>
                    <td>{payment.merchant_id}</td>
                    <td>{formatCad(payment.amount, language)}</td>
                    <td className="sender">{payment.sender_name} {payment.sender_email ? `<${payment.sender_email}>` : ''}{payment.comment ? ` — ${payment.comment}` : ''}</td>
                    <td>{payment.review_reasons.join(', ')}</td>
                    <td>{payment.email_id ?? '—'} {payment.reference_number ?? ''}</td>
                    <td>{formatDate(payment.created_at, language)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <nav className="pager" aria-label="pages">
              {after ? <button type="button" onClick={() => navigate(withParams(location, { starting_after: undefined }))}>{t.first}</button> : null}
              {page.has_more ? <button type="button" onClick={() => navigate(withParams(location, { starting_after: page.data[page.data.length - 1].id }))}>{t.next}</button> : null}
            </nav>
          </>
        )}
      </States>
    </section>
  );
}
