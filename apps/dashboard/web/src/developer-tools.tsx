import { useState } from 'react';
import type { ListPage, WebhookEndpointDeliveryView } from '@pp/contracts';
import { api, query } from './api';
import { DeliveryList } from './deliveries';
import { formatDate, useI18n } from './i18n';
import type { IdempotentPost } from './idempotent-post';
import type { SessionRow } from './sessions';
import { type Outcome, OutcomeSelect, simulate } from './simulate';
import { isPreviewSession, previewSessionIn, sessionToSimulate } from './simulate-session.policy';
import { ActionButton, States, useLoad } from './ui';

/** How many pending test sessions the Simulate panel lists, newest first. */
const SESSIONS_LISTED = 50;

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

/**
 * Simulate a payment on a pending test session: the preview session when it is listed (simulate-session.policy.ts),
 * else the one the user chooses. Never another by default: the newest may be a CI's, and a confirmed simulation would
 * complete it and fire its webhooks.
 */
export function SimulatePanel({ post }: { post: IdempotentPost }) {
  const { t, language } = useI18n();
  const path = `/api/checkout-sessions${query({ status: 'PENDING', limit: String(SESSIONS_LISTED) })}`;
  const loaded = useLoad(() => api<ListPage<SessionRow>>(path), path);
  const [chosen, setChosen] = useState<string>();
  const [outcome, setOutcome] = useState<Outcome>('confirmed');
  return (
    <section aria-labelledby="simulate-title">
      <h2 id="simulate-title">{t.simulatePanel}</h2>
      <States loaded={loaded} isEmpty={(page) => page.data.length === 0}>
        {(page) => {
          const sessionId = sessionToSimulate(page.data, chosen);
          return (
            <>
              {previewSessionIn(page.data) ? null : <p className="muted preview-not-listed">{t.previewNotListed}</p>}
              <div className="actions">
                <label>
                  {t.sessionToSimulate}
                  <select id="simulate-session" value={sessionId ?? ''} onChange={(event) => setChosen(event.target.value || undefined)}>
                    <option value="">{t.chooseSession}</option>
                    {page.data.map((session) => (
                      <option key={session.id} value={session.id}>
                        {isPreviewSession(session) ? `${t.previewSession} · ` : ''}
                        {session.id} · {session.reference} · {formatDate(session.expires_at, language)}
                      </option>
                    ))}
                  </select>
                </label>
                <OutcomeSelect id="simulate-outcome" value={outcome} onChange={setOutcome} />
                <ActionButton label={t.simulate} disabled={!sessionId} run={() => simulate(post, sessionId!, outcome)} />
              </div>
            </>
          );
        }}
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
