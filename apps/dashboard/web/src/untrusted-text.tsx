import { Fragment } from 'react';
import { useI18n } from './i18n';

/*
 * Text someone outside chose (a transfer e-mail's display name, From address,
 * memo, subject and recipients; the payer's name and comment on a payment; a
 * refund's reason as the merchant's user wrote it; an audit entry's detail)
 * is shown each value in its own <bdi>: the bidi algorithm isolates it, so a
 * right-to-left override it holds reorders nothing outside it, and cannot
 * make what stands next to it read otherwise.
 */

/** One value from outside, isolated; a dash when there is none. */
export function Untrusted({ text }: { text: string | null | undefined }) {
  return <bdi>{text ?? '—'}</bdi>;
}

/** Values from an e-mail, each isolated, comma-separated; a dash when there are none. */
export function UntrustedList({ values }: { values: string[] }) {
  if (values.length === 0) return <>—</>;
  return (
    <>
      {values.map((value, index) => (
        <Fragment key={index}>
          {index > 0 ? ', ' : null}
          <bdi>{value}</bdi>
        </Fragment>
      ))}
    </>
  );
}

/** Whether DKIM proved the mail came from Interac: an element of its own, never in one string with the sender's text. */
export function AuthenticationVerdict({ authenticated }: { authenticated: boolean }) {
  const { t } = useI18n();
  return <span className="verdict" data-authenticated={String(authenticated)}>{authenticated ? `✓ ${t.authenticated}` : `✗ ${t.notAuthenticated}`}</span>;
}
