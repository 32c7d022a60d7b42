import type { ListPage, QuarantinedEmailView } from '@pp/contracts';
import { api, query } from './api';
import { formatCad, formatDate, useI18n } from './i18n';
import { ListTable, pageHasMore, UrlFilter } from './list-table';
import type { Location } from './router';
import { ActionButton, StatusBadge, useLoad } from './ui';
import { AuthenticationVerdict, Untrusted, UntrustedList } from './untrusted-text';

const STATUSES = ['quarantined', 'released'] as const;

/** Transfer e-mails addressed to no known merchant; release matches one again once its deposit address is registered. */
export function AdminQuarantinePage({ location }: { location: Location }) {
  const { t, language } = useI18n();
  const status = location.params.get('status') === 'released' ? 'released' : 'quarantined';
  const after = location.params.get('starting_after') ?? undefined;
  const path = `/api/admin/ingest/quarantine${query({ status, starting_after: after, limit: '50' })}`;
  const loaded = useLoad(() => api<ListPage<QuarantinedEmailView>>(path), path);
  /** Releasing records a payment: asked first, naming the e-mail and its amount, as revoking a key is. */
  const release = async (email: QuarantinedEmailView) => {
    const amount = email.amount_cents === null ? '' : ` · ${formatCad(email.amount_cents, language)}`;
    if (!window.confirm(`${t.releaseConfirm} ${email.id}${amount}`)) return;
    await api(`/api/admin/ingest/quarantine/${email.id}/release`, { method: 'POST' });
    await loaded.reload();
  };
  return (
    <section aria-labelledby="quarantine-title">
      <h1 id="quarantine-title">{t.quarantine}</h1>
      <UrlFilter className="filters" location={location} param="status" id="status-filter" label={t.status} value={status} options={STATUSES} optionLabel={(value) => (value === 'released' ? t.released : t.quarantined)} />
      <ListTable
        loaded={loaded}
        rows={(page) => page.data}
        label={t.quarantine}
        paging={{ location, hasMore: pageHasMore }}
        rowProps={(email) => ({ 'data-email-id': email.id })}
        columns={[
          { header: t.email, cell: (email) => <>{email.id} <StatusBadge status={email.status} /></> },
          { header: t.receivedAt, cell: (email) => formatDate(email.received_at, language) },
          {
            header: t.sender,
            className: 'sender',
            cell: (email) => (
              <>
                <Untrusted text={email.sender_name} />
                {email.from ? <> &lt;<Untrusted text={email.from} />&gt;</> : null}
              </>
            ),
          },
          // The verdict has a column of its own: the sender's text beside it could otherwise be made to read as it.
          { header: t.authenticated, className: 'authentication', cell: (email) => <AuthenticationVerdict authenticated={email.authenticated} /> },
          { header: t.recipients, className: 'recipients', cell: (email) => <UntrustedList values={email.recipients} /> },
          { header: t.amount, cell: (email) => (email.amount_cents === null ? '—' : formatCad(email.amount_cents, language)) },
          {
            header: t.memo,
            className: 'memo',
            cell: (email) => (
              <>
                <Untrusted text={email.memo} /> · <Untrusted text={email.subject} />
              </>
            ),
          },
          { header: t.reviewReasons, cell: (email) => email.reasons.join(', ') || '—' },
          {
            header: t.release,
            hideHeader: true,
            cell: (email) =>
              email.release ? (
                <span className="muted">{email.release.merchant_id} · {email.release.payment_id}</span>
              ) : (
                <ActionButton label={t.release} of={email.id} run={() => release(email)} />
              ),
          },
        ]}
      />
    </section>
  );
}
