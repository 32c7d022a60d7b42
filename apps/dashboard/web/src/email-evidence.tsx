import { useState } from 'react';
import type { EmailEvidenceView } from '@pp/contracts';
import { api } from './api';
import { formatCad, formatDate, useI18n } from './i18n';
import { States, useLoad } from './ui';
import { AuthenticationVerdict, Untrusted, UntrustedList } from './untrusted-text';

/** Our own codes (reasons), not the sender's text. */
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
          <dd><Untrusted text={email.message_id} /></dd>
          <dt>{t.senderAddress}</dt>
          <dd><Untrusted text={email.from} /></dd>
          <dt>{t.authenticated}</dt>
          <dd>
            <AuthenticationVerdict authenticated={email.authenticated} />
            {email.authenticated ? <> · {t.signedBy}: <Untrusted text={email.signing_domain} /></> : null}
          </dd>
          {email.authentication_reasons.length > 0 ? (<><dt>{t.authenticationReasons}</dt><dd>{list(email.authentication_reasons)}</dd></>) : null}
          <dt>{t.signedRecipient}</dt>
          <dd><Untrusted text={email.signed_recipient} />{email.recipient_reasons.length > 0 ? ` (${list(email.recipient_reasons)})` : ''}</dd>
          <dt>{t.toHeader}</dt>
          <dd><UntrustedList values={email.to} /></dd>
          <dt>{t.deliveredTo}</dt>
          <dd><UntrustedList values={email.delivered_to} /></dd>
          <dt>{t.parsedFields}</dt>
          <dd>
            {email.kind} · <Untrusted text={email.sender_name} /> · {email.amount_cents === null ? '—' : formatCad(email.amount_cents, language)} · <Untrusted text={email.memo} /> · <Untrusted text={email.reference_number} />
          </dd>
          {email.parse_reasons.length > 0 ? (<><dt>{t.parseReasons}</dt><dd>{list(email.parse_reasons)}</dd></>) : null}
          <dt>{t.payerMessage}</dt>
          <dd className="message"><Untrusted text={email.message} /></dd>
          <dt>{t.noticeText}</dt>
          <dd><pre className="notice-text"><Untrusted text={email.notice_text} /></pre></dd>
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
