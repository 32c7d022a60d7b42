import { useState } from 'react';
import type { ListPage } from '@pp/contracts';
import { api, query } from './api';
import { formatCad, formatDate, useI18n } from './i18n';
import { type Location, navigate, withParams } from './router';
import { ActionButton, States, StatusBadge, useLoad } from './ui';

interface SessionRow {
  id: string;
  amount: number;
  reference: string;
  memo: string;
  status: string;
  livemode: boolean;
  expires_at: string;
  created_at: string;
}

const OUTCOMES = ['confirmed', 'failed', 'requires_manual_review'] as const;

/** Checkout sessions of the current mode; pending test sessions can be paid with the sandbox simulator. */
export function SessionsPage({ location, mode }: { location: Location; mode: string }) {
  const { t, language } = useI18n();
  const after = location.params.get('starting_after') ?? undefined;
  const path = `/api/checkout-sessions${query({ mode, starting_after: after, limit: '20' })}`;
  const loaded = useLoad(() => api<ListPage<SessionRow>>(path), path);
  const [outcome, setOutcome] = useState<(typeof OUTCOMES)[number]>('confirmed');
  return (
    <section aria-labelledby="sessions-title">
      <h1 id="sessions-title">{t.checkoutSessions}</h1>
      {mode !== 'live' ? (
        <label className="filters">
          {t.outcome}
          <select value={outcome} onChange={(event) => setOutcome(event.target.value as (typeof OUTCOMES)[number])}>
            {OUTCOMES.map((value) => (
              <option key={value} value={value}>{value}</option>
            ))}
          </select>
        </label>
      ) : null}
      <States loaded={loaded} isEmpty={(page) => page.data.length === 0}>
        {(page) => (
          <>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t.session}</th>
                  <th scope="col">{t.reference}</th>
                  <th scope="col">{t.amount}</th>
                  <th scope="col">{t.status}</th>
                  <th scope="col">{t.expires}</th>
                  <th scope="col"><span className="visually-hidden">{t.simulate}</span></th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((session) => (
                  <tr key={session.id} data-session-id={session.id}>
                    <td>{session.id}</td>
                    <td className="reference">{session.reference}</td>
                    <td>{formatCad(session.amount, language)}</td>
                    <td><StatusBadge status={session.status} /></td>
                    <td>{formatDate(session.expires_at, language)}</td>
                    <td>
                      {!session.livemode && session.status === 'PENDING' ? (
                        <ActionButton
                          label={`${t.simulate} ${outcome}`}
                          run={async () => {
                            const result = await api<{ transaction: { id: string } }>('/api/sandbox/simulate', { method: 'POST', body: { session_id: session.id, outcome } });
                            navigate(`/payments/${result.transaction.id}`);
                          }}
                        />
                      ) : null}
                    </td>
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
