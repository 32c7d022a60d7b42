import { useState } from 'react';
import type { DashboardPrincipal, ListPage } from '@pp/contracts';
import { api, query } from './api';
import { formatCad, formatDate, useI18n } from './i18n';
import { useIdempotentPost } from './idempotent-post';
import { AppLink, type Column, inMode, ListTable, pageHasMore } from './list-table';
import { may } from './permissions';
import type { Location } from './router';
import { type Outcome, OutcomeSelect, simulate } from './simulate';
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

/** Checkout sessions of the current mode; pending test sessions can be paid with the sandbox simulator by roles that may simulate. */
export function SessionsPage({ location, mode, user }: { location: Location; mode: string; user: DashboardPrincipal }) {
  const { t, language } = useI18n();
  const after = location.params.get('starting_after') ?? undefined;
  const path = `/api/checkout-sessions${query({ mode, starting_after: after, limit: '20' })}`;
  const loaded = useLoad(() => api<ListPage<SessionRow>>(path), path);
  const [outcome, setOutcome] = useState<Outcome>('confirmed');
  // One for every row: each session's simulation is remembered on its own.
  const post = useIdempotentPost();
  // The server refuses the simulator to other roles (403): they get neither its outcome choice nor its buttons.
  const maySimulate = mode !== 'live' && may(user, 'payments.simulate');
  const simulateColumn: Column<SessionRow> = {
    header: t.simulate,
    hideHeader: true,
    cell: (session) =>
      !session.livemode && session.status === 'PENDING' ? <ActionButton label={`${t.simulate} ${outcome}`} of={session.id} run={() => simulate(post, session.id, outcome)} /> : null,
  };
  return (
    <section aria-labelledby="sessions-title">
      <h1 id="sessions-title">{t.checkoutSessions}</h1>
      {maySimulate ? <OutcomeSelect className="filters" value={outcome} onChange={setOutcome} /> : null}
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
          ...(maySimulate ? [simulateColumn] : []),
        ]}
      />
    </section>
  );
}
