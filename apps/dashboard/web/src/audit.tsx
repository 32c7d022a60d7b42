import { type FormEvent, type ReactNode, useState } from 'react';
import type { AuditAction, AuditEntryView, ListPage } from '@pp/contracts';
import { api, query } from './api';
import { formatDate, roleLabel, useI18n } from './i18n';
import { PageStates, UrlFilter } from './list-table';
import { type Location, navigate, withParams } from './router';
import { useLoad } from './ui';
import { Untrusted } from './untrusted-text';

/** Every action, for the filter (a record, so the compiler names one that is missing; the bundle imports no values from contracts). */
const ACTIONS = Object.keys({
  'auth.sign_in': 1, 'auth.password_changed': 1,
  'refund.requested': 1, 'refund.cancelled': 1, 'refund.approved': 1, 'refund.rejected': 1, 'refund.marked_sent': 1, 'refund.completed': 1, 'refund.failed': 1,
  'payment.verified': 1, 'payment.simulated': 1, 'event.resent': 1, 'api_key.created': 1, 'api_key.revoked': 1,
  'webhook_endpoint.created': 1, 'webhook_endpoint.secret_rotated': 1, 'webhook_endpoint.deleted': 1, 'webhook_endpoint.enabled': 1, 'webhook_endpoint.disabled': 1,
  'team.user_added': 1, 'team.role_changed': 1, 'team.user_removed': 1, 'team.password_reset': 1,
  'merchant.created': 1, 'merchant.updated': 1, 'quarantine.released': 1,
  'platform_admin.created': 1, 'platform_admin.removed': 1, 'platform_admin.password_reset': 1,
} satisfies Record<AuditAction, 1>);

/** The merchant's audit list (owners and administrators): who changed what, newest first, with an action filter and cursor paging. */
export function AuditPage({ location }: { location: Location }) {
  return <AuditList location={location} source="/api/audit" />;
}

/** Platform admins: every merchant's entries, with a merchant filter. */
export function AdminAuditPage({ location }: { location: Location }) {
  const { t } = useI18n();
  const merchant = location.params.get('merchant_id') ?? '';
  const [text, setText] = useState(merchant);
  const filter = (event: FormEvent) => {
    event.preventDefault();
    navigate(withParams(location, { merchant_id: text.trim() || undefined, starting_after: undefined }));
  };
  return (
    <AuditList location={location} source="/api/admin/audit" merchantId={merchant || undefined}>
      <form role="search" className="filters" onSubmit={filter}>
        <label>
          {t.merchantId}
          <input name="merchant_id" value={text} onChange={(event) => setText(event.target.value)} placeholder="mer_…" />
        </label>
        <button type="submit">{t.filter}</button>
      </form>
    </AuditList>
  );
}

function AuditList({ location, source, merchantId, children }: { location: Location; source: string; merchantId?: string; children?: ReactNode }) {
  const { t, language } = useI18n();
  const action = location.params.get('action') ?? undefined;
  const after = location.params.get('starting_after') ?? undefined;
  const path = `${source}${query({ merchant_id: merchantId, action, starting_after: after, limit: '25' })}`;
  const loaded = useLoad(() => api<ListPage<AuditEntryView>>(path), path);
  const showMerchant = merchantId !== undefined || source.startsWith('/api/admin');
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">{t.audit}</h1>
      {children}
      <UrlFilter className="filters" location={location} param="action" id="action-filter" label={t.action} value={action ?? ''} options={ACTIONS} allLabel={t.all} />
      <PageStates loaded={loaded} location={location} label={t.auditPages}>
        {(rows) => (
          <table>
            <thead>
              <tr>
                <th scope="col">{t.when}</th>
                <th scope="col">{t.who}</th>
                <th scope="col">{t.action}</th>
                <th scope="col">{t.target}</th>
                <th scope="col">{t.outcome}</th>
                {showMerchant ? <th scope="col">{t.merchant}</th> : null}
                <th scope="col">{t.detail}</th>
                <th scope="col">{t.from}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((entry) => (
                <tr key={entry.id} data-audit-id={entry.id} data-action={entry.action}>
                  <td>{formatDate(entry.at, language)}</td>
                  <td className="actor">
                    {entry.actor_email}
                    {entry.actor_role ? <span className="muted"> ({roleLabel(t, entry.actor_role)})</span> : null}
                  </td>
                  <td><code>{entry.action}</code>{entry.livemode === null ? null : <span className="muted"> · {entry.livemode ? t.liveMode : t.testMode}</span>}</td>
                  <td className="target"><code>{entry.target_id ?? '—'}</code></td>
                  <td><span className={`badge badge-${entry.outcome}`}>{t[`outcome_${entry.outcome}`]}</span></td>
                  {showMerchant ? <td><code>{entry.merchant_id ?? '—'}</code></td> : null}
                  {/* Text from outside among it (a refund's reason, an e-mail typed at a failed sign-in): isolated. */}
                  <td className="detail"><Untrusted text={entry.detail} /></td>
                  <td className="muted">{entry.address ? `${entry.address} · ` : null}<code>{entry.request_id}</code></td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </PageStates>
    </section>
  );
}
