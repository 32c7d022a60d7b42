import { type FormEvent, useState } from 'react';
import type { ListPage, PaymentView } from '@pp/contracts';
import { api, query } from './api';
import { formatCad, formatDate, type Language, type Messages, statusLabel, useI18n } from './i18n';
import { AppLink, type Column, inMode, ListTable, pageHasMore, UrlFilter } from './list-table';
import { type Location, navigate, withParams } from './router';
import { StatusBadge, useLoad } from './ui';
import { Untrusted } from './untrusted-text';

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
        <UrlFilter location={location} param="status" id="status-filter" label={t.status} value={status ?? ''} options={STATUSES} allLabel={t.all} optionLabel={(value) => statusLabel(t, value)} />
        <form onSubmit={submit} role="search">
          <label>
            {t.reference}
            <input type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
          </label>
          <button type="submit">{t.search}</button>
        </form>
      </div>
      <ListTable
        loaded={loaded}
        rows={(page) => page.data}
        label={t.payments}
        paging={{ location, hasMore: pageHasMore }}
        columns={paymentColumns(t, language, mode)}
      />
    </section>
  );
}

/** The payments table's columns, shared by the Payments list and Home's latest payments. */
export function paymentColumns(t: Messages, language: Language, mode: string): Column<PaymentView>[] {
  return [
    { header: t.payment, cell: (payment) => <AppLink to={inMode(`/payments/${payment.id}`, mode)}>{payment.id}</AppLink> },
    { header: t.amount, cell: (payment) => formatCad(payment.amount, language) },
    { header: t.status, cell: (payment) => <StatusBadge status={payment.status} /> },
    // The payer's own name, isolated (untrusted-text.tsx).
    { header: t.sender, className: 'sender', cell: (payment) => <Untrusted text={payment.sender_name} /> },
    { header: t.created, cell: (payment) => formatDate(payment.created_at, language) },
  ];
}
