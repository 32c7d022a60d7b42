import { useState } from 'react';
import type { DashboardPrincipal, PaymentView } from '@pp/contracts';
import { api, query } from './api';
import { formatCad, formatDate, useI18n } from './i18n';
import { useIdempotentPost } from './idempotent-post';
import { ListTable } from './list-table';
import { paymentColumns } from './payments';
import { may } from './permissions';
import type { SessionRow } from './sessions';
import { type Outcome, OutcomeSelect, simulate } from './simulate';
import { ActionButton, States, StatusBadge, useLoad } from './ui';

interface SessionDetail {
  session: SessionRow;
  /** The newest of its payments (the server's SESSION_PAYMENTS_SHOWN). */
  payments: PaymentView[];
  payments_has_more: boolean;
}

/** One checkout session: every field, the payments made on it, and the simulator while a test session is pending (for roles that may simulate). */
export function SessionDetailPage({ id, mode, user }: { id: string; mode: string; user: DashboardPrincipal }) {
  const { t, language } = useI18n();
  const path = `/api/checkout-sessions/${encodeURIComponent(id)}${query({ mode })}`;
  const loaded = useLoad(() => api<SessionDetail>(path), path);
  const [outcome, setOutcome] = useState<Outcome>('confirmed');
  const post = useIdempotentPost();
  return (
    <section aria-labelledby="session-title">
      <h1 id="session-title">{t.sessionDetail} {id}</h1>
      <States loaded={loaded}>
        {({ session }) => (
          <>
            <dl className="fields">
              <dt>{t.status}</dt>
              <dd><StatusBadge status={session.status} /></dd>
              <dt>{t.amount}</dt>
              <dd>{formatCad(session.amount, language)}</dd>
              <dt>{t.reference}</dt>
              <dd className="reference">{session.reference}</dd>
              <dt>{t.memo}</dt>
              <dd className="memo">{session.memo}</dd>
              <dt>{t.created}</dt>
              <dd>{formatDate(session.created_at, language)}</dd>
              <dt>{t.expires}</dt>
              <dd className="expires-at" data-expires-at={session.expires_at}>{formatDate(session.expires_at, language)}</dd>
              <dt>{t.successUrl}</dt>
              <dd className="url">{session.success_url}</dd>
              <dt>{t.cancelUrl}</dt>
              <dd className="url">{session.cancel_url}</dd>
              <dt>{t.metadata}</dt>
              <dd><pre className="metadata">{JSON.stringify(session.metadata ?? {}, null, 2)}</pre></dd>
            </dl>
            {!session.livemode && session.status === 'PENDING' && may(user, 'payments.simulate') ? (
              <div className="actions">
                <OutcomeSelect value={outcome} onChange={setOutcome} />
                <ActionButton label={`${t.simulate} ${outcome}`} run={() => simulate(post, session.id, outcome)} />
              </div>
            ) : null}
          </>
        )}
      </States>
      <h2>{t.linkedPayments}</h2>
      <ListTable loaded={loaded} rows={(detail) => detail.payments} label={t.linkedPayments} columns={paymentColumns(t, language, mode)} />
      {/* The Payments list has no filter by session to link to: the page says how many it shows, rather than cut them silently. */}
      {loaded.data?.payments_has_more ? <p className="muted more-payments">{t.morePayments.replace('{count}', String(loaded.data.payments.length))}</p> : null}
    </section>
  );
}
