import { useState } from 'react';
import type { ListPage } from '@pp/contracts';
import { api, query } from './api';
import { formatCad, formatDate, useI18n } from './i18n';
import { AppLink, inMode, ListTable, pageHasMore } from './list-table';
import { type Location, navigate } from './router';
import { ActionButton, StatusBadge, useLoad } from './ui';

export interface SessionRow {
  id: string;
  amount: number;
  reference: string;
  memo: string;
  status: string;
  livemode: boolean;
  expires_at: string;
  created_at: string;
  success_url: string;
  cancel_url: string;
  metadata: Record<string, unknown> | null;
}

export const OUTCOMES = ['confirmed', 'failed', 'requires_manual_review'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** Pays a pending test session with the sandbox simulator, then shows the payment. */
export async function simulate(sessionId: string, outcome: Outcome): Promise<void> {
  const result = await api<{ transaction: { id: string } }>('/api/sandbox/simulate', { method: 'POST', body: { session_id: sessionId, outcome } });
  navigate(`/payments/${result.transaction.id}`);
}

/** Checkout sessions of the current mode; pending test sessions can be paid with the sandbox simulator. */
export function SessionsPage({ location, mode }: { location: Location; mode: string }) {
  const { t, language } = useI18n();
  const after = location.params.get('starting_after') ?? undefined;
  const path = `/api/checkout-sessions${query({ mode, starting_after: after, limit: '20' })}`;
  const loaded = useLoad(() => api<ListPage<SessionRow>>(path), path);
  const [outcome, setOutcome] = useState<Outcome>('confirmed');
  return (
    <section aria-labelledby="sessions-title">
      <h1 id="sessions-title">{t.checkoutSessions}</h1>
      {mode !== 'live' ? (
        <label className="filters">
          {t.outcome}
          <select value={outcome} onChange={(event) => setOutcome(event.target.value as Outcome)}>
            {OUTCOMES.map((value) => (
              <option key={value} value={value}>{value}</option>
            ))}
          </select>
        </label>
      ) : null}
      <ListTable
        loaded={loaded}
        rows={(page) => page.data}
        label={t.checkoutSessions}
        paging={{ location, hasMore: pageHasMore }}
        rowProps={(session) => ({ 'data-session-id': session.id })}
        columns={[
          { header: t.session, cell: (session) => <AppLink to={inMode(`/checkout-sessions/${session.id}`, mode)}>{session.id}</AppLink> },
          { header: t.reference, className: 'reference', cell: (session) => session.reference },
          { header: t.amount, cell: (session) => formatCad(session.amount, language) },
          { header: t.status, cell: (session) => <StatusBadge status={session.status} /> },
          { header: t.expires, cell: (session) => formatDate(session.expires_at, language) },
          {
            header: t.simulate,
            hideHeader: true,
            cell: (session) =>
              !session.livemode && session.status === 'PENDING' ? <ActionButton label={`${t.simulate} ${outcome}`} run={() => simulate(session.id, outcome)} /> : null,
          },
        ]}
      />
    </section>
  );
}
