import { useState } from 'react';
import type {
  DashboardPrincipal,
  IssuedMerchantApiKeyView,
  ListPage,
  MerchantApiKeyView,
  MerchantEventView,
  WebhookDeliveryAttemptView,
  WebhookEndpointView,
  WebhookEndpointWithSecretView,
} from '@pp/contracts';
import { api, query } from './api';
import { formatDate, keyTypeLabel, useI18n } from './i18n';
import type { Location } from './router';
import { DeliveryList } from './deliveries';
import { EndpointDeliveries, PreviewCheckout, SimulatePanel } from './developer-tools';
import { type IdempotentPost, useIdempotentPost } from './idempotent-post';
import { PageStates, UrlFilter } from './list-table';
import { may } from './permissions';
import { ShownOnce } from './shown-once';
import { ActionButton, States, StatusBadge, useLoad, useSubmit } from './ui';

const REFUNDS_SCOPE = 'refunds.write';
const SCOPES = ['checkout.write', 'payments.read', 'events.read', 'webhooks.write', REFUNDS_SCOPE];
const EVENT_TYPES = ['checkout.session.completed', 'checkout.session.expired', 'payment.confirmed', 'payment.pending_review', 'payment.failed', 'payment.refunded'];

export function DevelopersPage({ location, mode, user }: { location: Location; mode: string; user: DashboardPrincipal }) {
  const { t } = useI18n();
  const mayManage = may(user, 'developers.manage');
  // The tab's: a section keyed by mode (the keys) starts afresh on a switch, and must not forget its unsettled creation.
  const post = useIdempotentPost();
  return (
    <section aria-labelledby="developers-title">
      <h1 id="developers-title">{t.developers}</h1>
      {mode !== 'live' ? (
        <>
          {mayManage ? <PreviewCheckout /> : null}
          {may(user, 'payments.simulate') ? <SimulatePanel post={post} /> : null}
        </>
      ) : null}
      {/* Keyed by mode: its form starts afresh with the choices the mode allows. A live key that can refund is for roles that may refund (the server's mayIssueKey). */}
      <ApiKeys key={mode} mode={mode} mayManage={mayManage} mayRefund={may(user, 'payments.refund')} post={post} />
      <WebhookEndpoints mode={mode} mayManage={mayManage} post={post} />
      <Events location={location} mode={mode} mayManage={mayManage} />
    </section>
  );
}

function ApiKeys({ mode, mayManage, mayRefund, post }: { mode: string; mayManage: boolean; mayRefund: boolean; post: IdempotentPost }) {
  const { t, language } = useI18n();
  const path = `/api/developers/keys${query({ mode })}`;
  const loaded = useLoad(() => api<{ keys: MerchantApiKeyView[] }>(path), path);
  // A live key that can request refunds is a money action: offered only to roles that may refund.
  const refundingKeys = mayRefund || mode !== 'live';
  const [type, setType] = useState(refundingKeys ? 'secret' : 'publishable');
  const [scopes, setScopes] = useState<string[]>([]);
  const [issued, setIssued] = useState<IssuedMerchantApiKeyView>();
  const create = async () => {
    const body = type === 'restricted' ? { type, scopes } : { type };
    setIssued(await post<IssuedMerchantApiKeyView>(`/api/developers/keys${query({ mode })}`, body));
    await loaded.reload();
  };
  const revoke = async (key: MerchantApiKeyView) => {
    if (!window.confirm(`${t.revokeConfirm} ${key.redacted}`)) return;
    await api(`/api/developers/keys/${key.id}/revoke${query({ mode })}`, { method: 'POST' });
    await loaded.reload();
  };
  return (
    <section aria-labelledby="keys-title">
      <h2 id="keys-title">{t.apiKeys}</h2>
      <States loaded={loaded} isEmpty={(data) => data.keys.length === 0}>
        {(data) => (
          <table>
            <thead>
              <tr>
                <th scope="col">{t.key}</th>
                <th scope="col">{t.type}</th>
                <th scope="col">{t.scopes}</th>
                <th scope="col">{t.created}</th>
                <th scope="col">{t.expires}</th>
                <th scope="col">{t.lastUsed}</th>
                <th scope="col">{t.status}</th>
                <th scope="col"><span className="visually-hidden">{t.revoke}</span></th>
              </tr>
            </thead>
            <tbody>
              {data.keys.map((key) => (
                <tr key={key.id} data-key-id={key.id}>
                  <td><code>{key.redacted}</code></td>
                  <td>{keyTypeLabel(t, key.type)}</td>
                  <td>{key.scopes.join(', ') || '—'}</td>
                  <td>{formatDate(key.created_at, language)}</td>
                  <td>{key.expires_at ? formatDate(key.expires_at, language) : '—'}</td>
                  <td>{key.last_used_at ? formatDate(key.last_used_at, language) : t.never}</td>
                  <td>{key.revoked_at ? <StatusBadge status="REVOKED" /> : <StatusBadge status="ACTIVE" />}</td>
                  <td>{mayManage && !key.revoked_at ? <ActionButton label={t.revoke} of={key.redacted} run={() => revoke(key)} /> : null}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </States>
      {mayManage ? (
        <div className="actions create-key">
          <label>
            {t.type}
            <select id="key-type" value={type} onChange={(event) => setType(event.target.value)}>
              {refundingKeys ? <option value="secret">{keyTypeLabel(t, 'secret')}</option> : null}
              {/* The gateway issues restricted keys in live mode only. */}
              {mode === 'live' ? <option value="restricted">{keyTypeLabel(t, 'restricted')}</option> : null}
              <option value="publishable">{keyTypeLabel(t, 'publishable')}</option>
            </select>
          </label>
          {type === 'restricted' ? (
            <fieldset>
              <legend>{t.scopes}</legend>
              {SCOPES.filter((scope) => refundingKeys || scope !== REFUNDS_SCOPE).map((scope) => (
                <label key={scope}>
                  <input type="checkbox" checked={scopes.includes(scope)} onChange={(event) => setScopes(event.target.checked ? [...scopes, scope] : scopes.filter((s) => s !== scope))} />
                  {scope}
                </label>
              ))}
            </fieldset>
          ) : null}
          <ActionButton label={t.createKey} run={create} />
        </div>
      ) : null}
      {issued ? <ShownOnce label={t.newKey} secret={issued.key} onClose={() => setIssued(undefined)} /> : null}
    </section>
  );
}

function WebhookEndpoints({ mode, mayManage, post }: { mode: string; mayManage: boolean; post: IdempotentPost }) {
  const { t } = useI18n();
  const path = `/api/developers/webhook-endpoints${query({ mode })}`;
  const loaded = useLoad(() => api<{ endpoints: WebhookEndpointView[] }>(path), path);
  const [url, setUrl] = useState('');
  // None checked: every event type, present and future.
  const [events, setEvents] = useState<string[]>([]);
  const [secret, setSecret] = useState<string>();
  const create = useSubmit(async () => {
    const created = await post<WebhookEndpointWithSecretView>(path, events.length > 0 ? { url, enabled_events: events } : { url });
    setSecret(created.secret);
    setUrl('');
    setEvents([]);
    await loaded.reload();
  });
  const [shown, setShown] = useState<string>();
  const act = (endpoint: WebhookEndpointView, action: 'rotate' | 'rotate-now' | 'delete' | 'disable' | 'enable') => async () => {
    if (action === 'disable' || action === 'enable') {
      await api(`/api/developers/webhook-endpoints/${endpoint.id}/${action}${query({ mode })}`, { method: 'POST' });
    } else if (action === 'delete') {
      if (!window.confirm(`${t.deleteConfirm} ${endpoint.url}`)) return;
      await api(`/api/developers/webhook-endpoints/${endpoint.id}${query({ mode })}`, { method: 'DELETE' });
    } else {
      // The old secret signs beside the new one for 24 hours, unless it leaked: then it stops at once.
      if (action === 'rotate-now' && !window.confirm(t.rotateNowConfirm)) return;
      const body = action === 'rotate-now' ? { previous_secret_expires_in: 0 } : {};
      // Remembered by its input: a retry of A's rotation sends A's key whatever was done to B meanwhile. It changes A: an
      // answered rotation of A settles A's unsettled ones, whose retry would otherwise be answered a secret it stopped.
      setSecret((await post<WebhookEndpointWithSecretView>(`/api/developers/webhook-endpoints/${endpoint.id}/rotate-secret${query({ mode })}`, body, endpoint.id)).secret);
    }
    await loaded.reload();
  };
  return (
    <section aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">{t.webhooks}</h2>
      <States loaded={loaded} isEmpty={(data) => data.endpoints.length === 0}>
        {(data) => (
          <ul className="cards">
            {data.endpoints.map((endpoint) => (
              <li key={endpoint.id} className="card" data-endpoint-id={endpoint.id}>
                <strong className="endpoint-url">{endpoint.url}</strong> <StatusBadge status={endpoint.status} /> <span className="muted">{endpoint.enabled_events.join(', ')}</span>
                {endpoint.status === 'disabled' ? (
                  <p className="muted disabled-note">
                    {endpoint.disabled_reason ? `${endpoint.disabled_reason}. ` : ''}
                    {t.disabledNote}
                  </p>
                ) : null}
                {mayManage ? (
                  <div className="actions">
                    {endpoint.status === 'enabled' ? (
                      <ActionButton label={t.disable} of={endpoint.url} run={act(endpoint, 'disable')} />
                    ) : (
                      <ActionButton label={t.enable} of={endpoint.url} run={act(endpoint, 'enable')} />
                    )}
                    <ActionButton label={t.rotateSecret} of={endpoint.url} run={act(endpoint, 'rotate')} />
                    <ActionButton label={t.rotateSecretNow} of={endpoint.url} run={act(endpoint, 'rotate-now')} />
                    <ActionButton label={t.delete} of={endpoint.url} run={act(endpoint, 'delete')} />
                  </div>
                ) : null}
                <button type="button" className="link" aria-expanded={shown === endpoint.id} onClick={() => setShown(shown === endpoint.id ? undefined : endpoint.id)}>
                  {t.recentDeliveries}
                </button>
                {shown === endpoint.id ? <EndpointDeliveries endpointId={endpoint.id} mode={mode} /> : null}
              </li>
            ))}
          </ul>
        )}
      </States>
      {mayManage ? (
        <form className="actions" onSubmit={create.onSubmit}>
          <label>
            {t.endpointUrl}
            <input type="url" required value={url} onChange={(event) => setUrl(event.target.value)} />
          </label>
          <fieldset className="event-choice">
            <legend>{t.eventsToSend}</legend>
            {EVENT_TYPES.map((type) => (
              <label key={type}>
                <input
                  type="checkbox"
                  name="enabled_events"
                  value={type}
                  checked={events.includes(type)}
                  onChange={(event) => setEvents(event.target.checked ? [...events, type] : events.filter((chosen) => chosen !== type))}
                />
                {type}
              </label>
            ))}
          </fieldset>
          <button type="submit" disabled={create.busy} aria-busy={create.busy}>{create.busy ? t.working : t.addEndpoint}</button>
          {create.error !== undefined ? <span role="alert" className="error">{create.error}</span> : null}
        </form>
      ) : null}
      {secret ? <ShownOnce label={t.signingSecret} secret={secret} onClose={() => setSecret(undefined)} /> : null}
    </section>
  );
}

function Events({ location, mode, mayManage }: { location: Location; mode: string; mayManage: boolean }) {
  const { t, language } = useI18n();
  const type = location.params.get('type') ?? undefined;
  const after = location.params.get('starting_after') ?? undefined;
  const path = `/api/events${query({ mode, type, starting_after: after, limit: '20' })}`;
  const loaded = useLoad(() => api<ListPage<MerchantEventView>>(path), path);
  const [open, setOpen] = useState<string>();
  return (
    <section aria-labelledby="events-title">
      <h2 id="events-title">{t.events}</h2>
      <UrlFilter className="filters" location={location} param="type" id="event-type-filter" label={t.type} value={type ?? ''} options={EVENT_TYPES} allLabel={t.all} />
      <PageStates loaded={loaded} location={location} label={t.events}>
        {(rows) => (
          <ul className="cards">
            {rows.map((event) => (
              <li key={event.id} className="card" data-event-id={event.id}>
                <button type="button" className="link" aria-expanded={open === event.id} onClick={() => setOpen(open === event.id ? undefined : event.id)}>
                  {event.type}
                </button>{' '}
                <span className="muted">{event.id} · {formatDate(event.created_at, language)}</span>
                {open === event.id ? <EventDetail id={event.id} mode={mode} mayManage={mayManage} /> : null}
              </li>
            ))}
          </ul>
        )}
      </PageStates>
    </section>
  );
}

function EventDetail({ id, mode, mayManage }: { id: string; mode: string; mayManage: boolean }) {
  const { t } = useI18n();
  // A resend whose answer was lost is retried under its key: answered what it queued, not sent a second time.
  const post = useIdempotentPost();
  const path = `/api/events/${id}${query({ mode })}`;
  // Its deliveries are null while the webhooks service does not answer: the event still shows, and says so.
  const loaded = useLoad(() => api<MerchantEventView & { deliveries: WebhookDeliveryAttemptView[] | null }>(path), path);
  return (
    <States loaded={loaded}>
      {(event) => (
        <div className="event-detail">
          <pre className="metadata">{JSON.stringify(event.data, null, 2)}</pre>
          <h3>{t.deliveries}</h3>
          <DeliveryList deliveries={event.deliveries} label={t.deliveries} />
          {mayManage ? <ActionButton label={t.resend} run={() => post(`/api/events/${id}/resend${query({ mode })}`, {}).then(loaded.reload)} /> : null}
        </div>
      )}
    </States>
  );
}
