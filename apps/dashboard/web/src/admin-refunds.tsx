import { useState } from 'react';
import type { ListPage, RefundView } from '@pp/contracts';
import { api, query } from './api';
import { formatCad, formatDate, statusLabel, useI18n } from './i18n';
import { PageStates, UrlFilter } from './list-table';
import type { Location } from './router';
import { ActionButton, StatusBadge, useLoad } from './ui';
import { Untrusted } from './untrusted-text';

const STAGES = ['REQUESTED', 'APPROVED', 'SENT', 'COMPLETED', 'REJECTED', 'FAILED', 'CANCELLED'] as const;

/** The operators' refund queue (every merchant, live and test) by stage, a page at a time, with each stage's action. */
export function AdminRefundsPage({ location }: { location: Location }) {
  const { t } = useI18n();
  const status = location.params.get('status') ?? 'REQUESTED';
  const after = location.params.get('starting_after') ?? undefined;
  const path = `/api/admin/refunds${query({ status, starting_after: after, limit: '50' })}`;
  const loaded = useLoad(() => api<ListPage<RefundView>>(path), path);
  return (
    <section aria-labelledby="refunds-title">
      <h1 id="refunds-title">{t.refundQueue}</h1>
      <UrlFilter className="filters" location={location} param="status" id="status-filter" label={t.status} value={status} options={STAGES} optionLabel={(value) => statusLabel(t, value)} />
      <PageStates loaded={loaded} location={location}>
        {(rows) => (
          <ul className="cards">
            {rows.map((refund) => (
              <RefundCard key={refund.id} refund={refund} done={loaded.reload} />
            ))}
          </ul>
        )}
      </PageStates>
    </section>
  );
}

function RefundCard({ refund, done }: { refund: RefundView; done: () => Promise<void> }) {
  const { t, language } = useI18n();
  const [text, setText] = useState({ rejection_reason: '', outbound_reference: '', evidence_note: '', failure_reason: '' });
  const act = (action: string, body?: unknown) => () => api(`/api/admin/refunds/${refund.id}/${action}`, { method: 'POST', body: body ?? {} }).then(done);
  /** Approve and complete move money or say it moved: asked first, naming the amount and the merchant, as revoking a key is. */
  const confirmed = (question: string, run: () => Promise<unknown>) => async () => {
    if (!window.confirm(`${question} ${formatCad(refund.amount, language)} · ${t.merchant} ${refund.merchant_id} · ${refund.id}`)) return;
    await run();
  };
  const field = (name: keyof typeof text, label: string) => (
    <label>
      {label}
      <input value={text[name]} onChange={(event) => setText({ ...text, [name]: event.target.value })} />
    </label>
  );
  return (
    <li className="card" data-refund-id={refund.id}>
      <p>
        <strong>{refund.id}</strong> <StatusBadge status={refund.status} /> <StatusBadge status={refund.livemode ? 'LIVE' : 'TEST'} /> {formatCad(refund.amount, language)} · {t.merchant} {refund.merchant_id} · {t.payment} {refund.payment_id} ·{' '}
        {formatDate(refund.created_at, language)}
      </p>
      {/* Written by the merchant's user: isolated, as an e-mail's text is. */}
      {refund.reason ? <p className="muted reason">{t.reason}: <Untrusted text={refund.reason} /></p> : null}
      {refund.status === 'REQUESTED' || refund.status === 'APPROVED' ? (
        <div className="actions">
          {refund.status === 'REQUESTED' ? <ActionButton label={t.approve} of={refund.id} run={confirmed(t.approveConfirm, act('approve'))} /> : <ActionButton label={t.markSent} of={refund.id} run={act('mark-sent')} />}
          {/* Unclaimed, an approved refund may still be rejected; "mark sent" claims it before the money moves (PRODUCT-RULES §3.3). */}
          {refund.status === 'APPROVED' ? <p className="muted">{t.markSentFirst}</p> : null}
          {field('rejection_reason', t.reason)}
          <ActionButton label={t.reject} of={refund.id} run={act('reject', { rejection_reason: text.rejection_reason })} />
        </div>
      ) : null}
      {refund.status === 'SENT' ? (
        <div className="actions">
          {field('outbound_reference', t.outboundReference)}
          {field('evidence_note', t.evidenceNote)}
          <ActionButton label={t.complete} of={refund.id} run={confirmed(t.completeConfirm, act('complete', { outbound_reference: text.outbound_reference, evidence_note: text.evidence_note }))} />
          {field('failure_reason', t.reason)}
          <ActionButton label={t.fail} of={refund.id} run={act('fail', { failure_reason: text.failure_reason })} />
        </div>
      ) : null}
    </li>
  );
}
