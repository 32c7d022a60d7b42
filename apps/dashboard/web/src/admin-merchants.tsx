import { useEffect, useState } from 'react';
import type { MerchantAdminView, ProvisionedMerchantReply } from '@pp/contracts';
import { api, query } from './api';
import { formatDate, type Messages, useI18n } from './i18n';
import { useIdempotentPost } from './idempotent-post';
import { PageStates } from './list-table';
import { type Location, navigate, withParams } from './router';
import { ShownOnce, type ShownValue } from './shown-once';
import { ActionButton, useLoad, useSubmit } from './ui';

/** Merchants for platform admins: search, create (credentials shown once), deposit address and frame ancestors. */
export function AdminMerchantsPage({ location }: { location: Location }) {
  const { t } = useI18n();
  const search = location.params.get('search') ?? undefined;
  const after = location.params.get('starting_after') ?? undefined;
  const [text, setText] = useState(search ?? '');
  const path = `/api/admin/merchants${query({ search, starting_after: after, limit: '50' })}`;
  const loaded = useLoad(() => api<{ data: MerchantAdminView[]; has_more: boolean }>(path), path);
  const [created, setCreated] = useState<ProvisionedMerchantReply>();
  // The credentials live no longer than the page they were made on: paging, a search or the browser's back button forgets them.
  useEffect(() => setCreated(undefined), [path]);
  const [form, setForm] = useState({ name: '', email: '', etransfer_email: '' });
  const createMerchant = useIdempotentPost();
  const create = useSubmit(async () => {
    setCreated(await createMerchant<ProvisionedMerchantReply>('/api/admin/merchants', { name: form.name, email: form.email, ...(form.etransfer_email ? { etransfer_email: form.etransfer_email } : {}) }));
    setForm({ name: '', email: '', etransfer_email: '' });
    await loaded.reload();
  });
  return (
    <section aria-labelledby="merchants-title">
      <h1 id="merchants-title">{t.merchants}</h1>
      <form role="search" className="filters" onSubmit={(event) => { event.preventDefault(); navigate(withParams(location, { search: text.trim() || undefined, starting_after: undefined })); }}>
        <label>
          {t.search}
          <input type="search" value={text} onChange={(event) => setText(event.target.value)} />
        </label>
        <button type="submit">{t.search}</button>
      </form>
      <PageStates loaded={loaded} location={location}>
        {(rows) => (
          <ul className="cards">
            {rows.map((merchant) => (
              // Keyed by its last change too: a reload that brings a change starts the card's fields afresh from it.
              <MerchantCard key={`${merchant.id} ${merchant.updated_at}`} merchant={merchant} done={loaded.reload} />
            ))}
          </ul>
        )}
      </PageStates>
      <h2>{t.createMerchant}</h2>
      <form className="actions create-merchant" onSubmit={create.onSubmit}>
        <label>
          {t.name}
          <input required value={form.name} onChange={(event) => setForm({ ...form, name: event.target.value })} />
        </label>
        <label>
          {t.email}
          <input type="email" required value={form.email} onChange={(event) => setForm({ ...form, email: event.target.value })} />
        </label>
        <label>
          {t.depositAddress}
          <input type="email" value={form.etransfer_email} onChange={(event) => setForm({ ...form, etransfer_email: event.target.value })} />
        </label>
        <button type="submit" disabled={create.busy} aria-busy={create.busy}>{create.busy ? t.working : t.createMerchant}</button>
        {create.error !== undefined ? <span role="alert" className="error">{create.error}</span> : null}
      </form>
      {created ? <ShownOnce label={t.newMerchantCredentials} values={credentials(created, t)} onClose={() => setCreated(undefined)} /> : null}
    </section>
  );
}

/** What the new merchant's owner needs, each value with its copy button: the keys and the password are shown this once. */
function credentials(created: ProvisionedMerchantReply, t: Messages): ShownValue[] {
  return [
    { name: 'merchant_id', label: t.merchant, value: created.merchant_id },
    { name: 'owner_email', label: t.ownerEmail, value: created.dashboard_user.email },
    ...(created.dashboard_user.password ? [{ name: 'owner_password', label: t.ownerPassword, value: created.dashboard_user.password, secret: true }] : []),
    { name: 'live_secret', label: t.liveSecretKey, value: created.keys.live_secret, secret: true },
    { name: 'test_secret', label: t.testSecretKey, value: created.keys.test_secret, secret: true },
    { name: 'live_publishable', label: t.livePublishableKey, value: created.keys.live_publishable },
    { name: 'test_publishable', label: t.testPublishableKey, value: created.keys.test_publishable },
  ];
}

function MerchantCard({ merchant, done }: { merchant: MerchantAdminView; done: () => Promise<void> }) {
  const { t, language } = useI18n();
  const [deposit, setDeposit] = useState(merchant.etransfer_email ?? '');
  const [ancestors, setAncestors] = useState(merchant.frame_ancestors.join(', '));
  const changes = edited(merchant, deposit, ancestors);
  const save = () => api(`/api/admin/merchants/${merchant.id}`, { method: 'PATCH', body: changes }).then(done);
  return (
    <li className="card" data-merchant-id={merchant.id}>
      <p>
        <strong className="merchant-name">{merchant.name}</strong> <span className="muted">{merchant.id} · {merchant.email} · {formatDate(merchant.created_at, language)}</span>
      </p>
      <div className="actions">
        <label>
          {t.depositAddress}
          <input type="email" value={deposit} onChange={(event) => setDeposit(event.target.value)} />
        </label>
        <label>
          {t.frameAncestors}
          <input value={ancestors} onChange={(event) => setAncestors(event.target.value)} />
        </label>
        {/* Nothing changed, nothing to save: an empty update would still be a change in the merchant's record and its audit. */}
        <ActionButton label={t.save} run={save} disabled={Object.keys(changes).length === 0} />
      </div>
    </li>
  );
}

/**
 * Only the fields changed from the merchant as loaded: a field left alone is not sent, so the save
 * cannot write back a value another admin changed in the meantime (the deposit address above all).
 */
function edited(merchant: MerchantAdminView, deposit: string, ancestors: string): { etransfer_email?: string | null; frame_ancestors?: string[] } {
  const address = deposit.trim() || null;
  const origins = ancestors.split(',').map((origin) => origin.trim()).filter(Boolean);
  return {
    ...(address === merchant.etransfer_email ? {} : { etransfer_email: address }),
    ...(origins.join(' ') === merchant.frame_ancestors.join(' ') ? {} : { frame_ancestors: origins }),
  };
}
