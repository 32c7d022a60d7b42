import { type FormEvent, useState } from 'react';
import type { ListPage, PaymentView } from '@pp/contracts';
import { api, query } from './api';
import { formatCad, formatDate, useI18n } from './i18n';
import { type Location, navigate, withParams } from './router';
import { States, StatusBadge, useLoad } from './ui';

const STATUSES = ['PENDING', 'CONFIRMED', 'FAILED', 'REFUNDED', 'REQUIRES_MANUAL_REVIEW'] as const;

/** Payments of the current mode; status, reference and the page cursor live in the URL. */
export function PaymentsPage({ location, mode }: { location: Location; mode: string }) {
  const { t, language } = useI18n();
  const status = location.params.get('status') ?? undefined;
  const reference = location.params.get('reference') ?? undefined;
  const after = location.params.get('starting_after') ?? undefined;
  const [search, setSearch] = useState(reference ?? '');
  const path = `/api/payments${query({ mode, status, reference, starting_after: after, limit: '20' })}`;
  const loaded = useLoad(() => api<ListPage<PaymentView>>(path), path);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    navigate(withParams(location, { reference: search.trim() || undefined, starting_after: undefined }));
  };
  return (
    <section aria-labelledby="payments-title">
      <h1 id="payments-title">{t.payments}</h1>
      <div className="filters">
        <label>
          {t.status}
          <select id="status-filter" value={status ?? ''} onChange={(event) => navigate(withParams(location, { status: event.target.value || undefined, starting_after: undefined }))}>
            <option value="">{t.all}</option>
            {STATUSES.map((value) => (
              <option key={value} value={value}>{value}</option>
            ))}
          </select>
        </label>
        <form onSubmit={submit} role="search">
          <label>
            {t.reference}
            <input type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
          </label>
          <button type="submit">{t.search}</button>
        </form>
      </div>
      <States loaded={loaded} isEmpty={(page) => page.data.length === 0}>
        {(page) => (
          <>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t.payment}</th>
                  <th scope="col">{t.amount}</th>
                  <th scope="col">{t.status}</th>
                  <th scope="col">{t.sender}</th>
                  <th scope="col">{t.created}</th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((payment) => (
                  <tr key={payment.id}>
                    <td>
                      <a href={withParams(location, { status: undefined, reference: undefined, starting_after: undefined }, `/payments/${payment.id}`)} onClick={(event) => { event.preventDefault(); navigate(`/payments/${payment.id}${mode === 'live' ? '?mode=live' : ''}`); }}>
                        {payment.id}
                      </a>
                    </td>
                    <td>{formatCad(payment.amount, language)}</td>
                    <td><StatusBadge status={payment.status} /></td>
                    <td>{payment.sender_name}</td>
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
