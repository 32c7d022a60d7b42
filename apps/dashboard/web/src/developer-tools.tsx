import { useEffect, useState } from 'react';
import type { ListPage, WebhookEndpointDeliveryView } from '@pp/contracts';
import { api, query } from './api';
import { DeliveryList } from './deliveries';
import { formatDate, useI18n } from './i18n';
import type { IdempotentPost } from './idempotent-post';
import type { SessionRow } from './sessions';
import { type Outcome, OutcomeSelect, simulate } from './simulate';
import { ActionButton, States, useLoad } from './ui';

/** The preview session's reference starts so (set by the sessions service's preview handler). */
const PREVIEW_REFERENCE_PREFIX = 'preview-';

interface PreviewAnswer {
  outcome: 'created' | 'extended';
  checkout_url: string;
  session: { id: string; expires_at: string };
}

/** Opens the hosted checkout page of the merchant's stable test session (its deadline moves 30 minutes ahead each time). */
export function PreviewCheckout() {
  const { t } = useI18n();
  const open = async () => {
    const preview = await api<PreviewAnswer>('/api/developers/preview-checkout', { method: 'POST' });
    window.location.assign(preview.checkout_url);
  };
  return (
    <section aria-labelledby="preview-title">
      <h2 id="preview-title">{t.previewCheckout}</h2>
      <p className="muted">{t.previewHelp}</p>
      <ActionButton label={t.openPreview} run={open} />
    </section>
  );
}

/** Simulate a payment on a pending test session: the preview session by default. */
export function SimulatePanel({ post }: { post: IdempotentPost }) {
  const { t, language } = useI18n();
  const path = `/api/checkout-sessions${query({ status: 'PENDING', limit: '50' })}`;
  const loaded = useLoad(() => api<ListPage<SessionRow>>(path), path);
  const [sessionId, setSessionId] = useState('');
  const [outcome, setOutcome] = useState<Outcome>('confirmed');
  const sessions = loaded.data?.data;
  useEffect(() => {
    if (!sessions || sessionId) return;
    setSessionId((sessions.find((session) => session.reference.startsWith(PREVIEW_REFERENCE_PREFIX)) ?? sessions[0])?.id ?? '');
  }, [sessions, sessionId]);
  return (
    <section aria-labelledby="simulate-title">
      <h2 id="simulate-title">{t.simulatePanel}</h2>
      <States loaded={loaded} isEmpty={(page) => page.data.length === 0}>
        {(page) => (
          <div className="actions">
            <label>
              {t.sessionToSimulate}
              <select id="simulate-session" value={sessionId} onChange={(event) => setSessionId(event.target.value)}>
                {page.data.map((session) => (
                  <option key={session.id} value={session.id}>
                    {session.reference.startsWith(PREVIEW_REFERENCE_PREFIX) ? `${t.previewSession} · ` : ''}
                    {session.id} · {formatDate(session.expires_at, language)}
                  </option>
                ))}
              </select>
            </label>
            <OutcomeSelect id="simulate-outcome" value={outcome} onChange={setOutcome} />
            <ActionButton label={t.simulate} disabled={!sessionId} run={() => simulate(post, sessionId, outcome)} />
          </div>
        )}
      </States>
    </section>
  );
}

/** An endpoint's latest delivery attempts, with the event each carried. */
export function EndpointDeliveries({ endpointId, mode }: { endpointId: string; mode: string }) {
  const { t } = useI18n();
  const path = `/api/developers/webhook-endpoints/${endpointId}/deliveries${query({ mode })}`;
  const loaded = useLoad(() => api<{ deliveries: WebhookEndpointDeliveryView[] }>(path), path);
  return <States loaded={loaded}>{(data) => <DeliveryList deliveries={data.deliveries} label={t.recentDeliveries} showEvent />}</States>;
}
