import { useState } from 'react';
import type { EmailEvidenceView } from '@pp/contracts';
import { api } from './api';
import { formatCad, formatDate, useI18n } from './i18n';
import { States, useLoad } from './ui';

const list = (values: string[]) => (values.length > 0 ? values.join(', ') : '—');

/** What the ingest established about one e-mail: who sent it (and whether DKIM proves it), to whom, and what the parser read. All text. */
function EvidenceFields({ id }: { id: string }) {
  const { t, language } = useI18n();
  const path = `/api/admin/emails/${encodeURIComponent(id)}`;
  const loaded = useLoad(() => api<EmailEvidenceView>(path), path);
  return (
    <States loaded={loaded}>
      {(email) => (
        <dl className="fields evidence" aria-label={`${t.evidence} ${email.id}`}>
          <dt>{t.receivedAt}</dt>
          <dd>{formatDate(email.received_at, language)} ({email.channel})</dd>
          <dt>{t.messageId}</dt>
          <dd>{email.message_id ?? '—'}</dd>
          <dt>{t.senderAddress}</dt>
          <dd>{email.from ?? '—'}</dd>
          <dt>{t.authenticated}</dt>
          <dd>{email.authenticated ? `${t.signedBy}: ${email.signing_domain ?? '—'}` : t.notAuthenticated}</dd>
          {email.authentication_reasons.length > 0 ? (<><dt>{t.authenticationReasons}</dt><dd>{list(email.authentication_reasons)}</dd></>) : null}
          <dt>{t.signedRecipient}</dt>
          <dd>{email.signed_recipient ?? '—'}{email.recipient_reasons.length > 0 ? ` (${list(email.recipient_reasons)})` : ''}</dd>
          <dt>{t.toHeader}</dt>
          <dd>{list(email.to)}</dd>
          <dt>{t.deliveredTo}</dt>
          <dd>{list(email.delivered_to)}</dd>
          <dt>{t.parsedFields}</dt>
          <dd>
            {email.kind} · {email.sender_name ?? '—'} · {email.amount_cents === null ? '—' : formatCad(email.amount_cents, language)} · {email.memo ?? '—'} · {email.reference_number ?? '—'}
          </dd>
          {email.parse_reasons.length > 0 ? (<><dt>{t.parseReasons}</dt><dd>{list(email.parse_reasons)}</dd></>) : null}
        </dl>
      )}
    </States>
  );
}

/** A disclosure button that loads the evidence the first time it opens. */
export function EmailEvidence({ id }: { id: string }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  return (
    <div className="evidence-toggle">
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? t.hideEvidence : t.showEvidence}
      </button>
      {open ? <EvidenceFields id={id} /> : null}
    </div>
  );
}
