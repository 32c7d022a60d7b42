import { Fragment, useEffect, useRef, useState } from 'react';
import { useI18n } from './i18n';

/** One value of a ShownOnce dialog: `secret` marks a credential (data-secret), every value gets a copy button. */
export interface ShownValue {
  name: string;
  label: string;
  value: string;
  secret?: boolean;
}

/**
 * A secret shown once, in a modal dialog with a copy button; or, with `values`, several (a new merchant's keys and
 * owner password), each with its own. Closing it (Done, Escape) calls `onClose`, which drops them from the page.
 * A modal dialog, not a live region: nothing in it is read aloud unasked.
 */
export function ShownOnce({ label, secret, values, onClose }: { label: string; secret?: string; values?: ShownValue[]; onClose: () => void }) {
  const { t } = useI18n();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => dialog.current?.showModal(), []);
  return (
    <dialog ref={dialog} aria-labelledby="shown-once-title" onClose={onClose}>
      <h2 id="shown-once-title">{label}</h2>
      <p>{t.shownOnce}</p>
      {secret !== undefined ? <code className="secret" data-secret>{secret}</code> : null}
      {values ? (
        <dl className="shown-once">
          {values.map((shown) => (
            <Fragment key={shown.name}>
              <dt>{shown.label}</dt>
              <dd>
                <code className="secret" data-field={shown.name} data-secret={shown.secret ? shown.name : undefined}>{shown.value}</code>
                <CopyButton value={shown.value} what={shown.label} />
              </dd>
            </Fragment>
          ))}
        </dl>
      ) : null}
      <div className="actions">
        {secret !== undefined ? <CopyButton value={secret} /> : null}
        <button type="button" onClick={() => dialog.current?.close()}>{t.done}</button>
      </div>
    </dialog>
  );
}

/** Copies `value`; `what` names it to screen readers when the dialog holds several. A refused clipboard says so. */
function CopyButton({ value, what }: { value: string; what?: string }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState<boolean>();
  return (
    <>
      <button type="button" onClick={() => void navigator.clipboard.writeText(value).then(() => setCopied(true), () => setCopied(false))}>
        {copied ? t.copied : t.copy}
        {what ? <span className="visually-hidden"> {what}</span> : null}
      </button>
      {copied === false ? <span role="alert" className="error"> {t.copyFailed}</span> : null}
    </>
  );
}
