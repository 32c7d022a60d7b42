import { type FormEvent, type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { failureText } from './api-failure.policy';
import { statusLabel, useI18n } from './i18n';

export interface Loaded<T> {
  data?: T;
  error?: string;
  loading: boolean;
  /**
   * Loads again; resolves once that load has answered (or failed, or the page has gone). An action awaits it, so its
   * button stays disabled until the page shows what the action did: a second click meanwhile would act on the old rows.
   */
  reload: () => Promise<void>;
}

/**
 * Loads once per change of `key`; every list shows its loading, error and empty states from this.
 * An answer is kept with the key it was loaded for and shown for that key only: after a switch of
 * mode or filter, the previous key's rows never stand under the new one's heading. A reload of the
 * same key keeps its rows until the new answer.
 */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const { t } = useI18n();
  const [state, setState] = useState<{ key: string; data?: T; error?: string; loading: boolean }>({ key, loading: true });
  const [round, setRound] = useState(0);
  const rounds = useRef(0);
  // Each reload's caller, waiting for the load of its round (or a later one) to answer.
  const waiting = useRef<Array<{ round: number; done: () => void }>>([]);
  const answered = (upTo: number) => {
    const done = waiting.current.filter((caller) => caller.round <= upTo);
    waiting.current = waiting.current.filter((caller) => caller.round > upTo);
    for (const caller of done) caller.done();
  };
  useEffect(() => {
    let live = true;
    setState((previous) => ({ ...previous, loading: true, error: undefined }));
    load().then(
      (data) => live && setState({ key, data, loading: false }),
      (error: unknown) => live && setState({ key, error: failureText(error, t), loading: false }),
    ).finally(() => live && answered(round));
    return () => {
      live = false;
    };
  }, [key, round]); // `key` names everything `load` depends on
  // Gone from the page: nothing will answer its callers, who must not wait for ever.
  useEffect(() => () => answered(Number.POSITIVE_INFINITY), []);
  const reload = useCallback(
    () =>
      new Promise<void>((done) => {
        rounds.current += 1;
        waiting.current.push({ round: rounds.current, done });
        setRound(rounds.current);
      }),
    [],
  );
  const { key: loadedFor, ...shown } = state;
  return loadedFor === key ? { ...shown, reload } : { loading: true, reload };
}

/**
 * Loading, error and empty states around a list or a detail. `afterEmpty` follows the empty state: a list's pager,
 * so a page found empty past the first (its rows gone meanwhile) still leads back to the first.
 */
export function States<T>({ loaded, isEmpty, afterEmpty, children }: { loaded: Loaded<T>; isEmpty?: (data: T) => boolean; afterEmpty?: ReactNode; children: (data: T) => ReactNode }) {
  const { t } = useI18n();
  if (loaded.error !== undefined) return <p role="alert" className="error">{loaded.error}</p>;
  if (loaded.data === undefined) return <p aria-live="polite" className="muted">{t.loading}</p>;
  if (isEmpty?.(loaded.data)) {
    return (
      <>
        <p className="muted">{t.empty}</p>
        {afterEmpty}
      </>
    );
  }
  return <>{children(loaded.data)}</>;
}

/** A status in the reader's language; the wire value (PAYMENT_STATUSES and the like) stays as data-status and picks the colour. */
export function StatusBadge({ status }: { status: string }) {
  const { t } = useI18n();
  return (
    <span className={`badge badge-${status.toLowerCase()}`} data-status={status}>
      {statusLabel(t, status)}
    </span>
  );
}

/**
 * A button for a long action: disabled with a progress label while it runs; the server's refusal is shown next to it.
 * `of` names what a button of a row acts on (a refund's id, a user's e-mail): its accessible name is the label and
 * that, so a screen reader's list of buttons tells one row's "Approve" from the next.
 */
export function ActionButton({ label, run, disabled, of }: { label: string; run: () => Promise<unknown>; disabled?: boolean; of?: string }) {
  const { t } = useI18n();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  // Busy from the click until `run` ends, its page's reload included (Loaded.reload): a second click meanwhile is ignored.
  const running = useRef(false);
  const click = async () => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setError(undefined);
    try {
      await run();
    } catch (failure) {
      setError(failureText(failure, t));
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  return (
    <span className="action">
      <button type="button" onClick={() => void click()} disabled={busy || disabled} aria-busy={busy} aria-label={of === undefined ? undefined : `${busy ? t.working : label} ${of}`}>
        {busy ? t.working : label}
      </button>
      {error !== undefined ? <span role="alert" className="error"> {error}</span> : null}
    </span>
  );
}

/**
 * A form's submission: `busy` while it runs, for its submit button to be disabled (and a second submit meanwhile, a
 * double click, ignored: one POST per action), then the failure's words, shown beside the button.
 */
export function useSubmit(run: () => Promise<unknown>): { busy: boolean; error?: string; onSubmit: (event: FormEvent) => void } {
  const { t } = useI18n();
  const running = useRef(false);
  const [state, setState] = useState<{ busy: boolean; error?: string }>({ busy: false });
  const submit = async () => {
    running.current = true;
    setState({ busy: true });
    try {
      await run();
      setState({ busy: false });
    } catch (failure) {
      setState({ busy: false, error: failureText(failure, t) });
    } finally {
      running.current = false;
    }
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!running.current) void submit();
  };
  return { ...state, onSubmit };
}
