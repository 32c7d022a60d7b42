import { type FormEvent, useState } from 'react';
import { api, rememberCsrfToken, type SignedIn } from './api';
import { failureText } from './api-failure.policy';
import { useI18n } from './i18n';

/** The signed-in user's own password (the current one is asked again, the new one twice: a typo in it is caught here, before it locks the user out). */
export function AccountPage() {
  const { t } = useI18n();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeated, setRepeated] = useState('');
  const [state, setState] = useState<{ busy?: boolean; error?: string; done?: boolean }>({});
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (next !== repeated) {
      setState({ error: t.passwordsDiffer });
      return;
    }
    setState({ busy: true });
    try {
      const renewed = await api<SignedIn>('/api/auth/password', { method: 'POST', body: { current_password: current, new_password: next } });
      // The change ended the session this page started with: the next request carries the new session's token, as after sign-in.
      rememberCsrfToken(renewed.csrf_token);
      setCurrent('');
      setNext('');
      setRepeated('');
      setState({ done: true });
    } catch (failure) {
      setState({ error: failureText(failure, t) });
    }
  };
  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">{t.changePassword}</h1>
      <form className="sign-in" onSubmit={(event) => void submit(event)}>
        <label>
          {t.currentPassword}
          <input type="password" name="current_password" autoComplete="current-password" required value={current} onChange={(event) => setCurrent(event.target.value)} />
        </label>
        <label>
          {t.newPassword}
          <input type="password" name="new_password" autoComplete="new-password" minLength={12} required value={next} onChange={(event) => setNext(event.target.value)} />
        </label>
        <label>
          {t.confirmNewPassword}
          <input type="password" name="confirm_password" autoComplete="new-password" required value={repeated} onChange={(event) => setRepeated(event.target.value)} />
        </label>
        {state.error !== undefined ? <p role="alert" className="error">{state.error}</p> : null}
        {state.done ? <p role="status">{t.passwordChanged}</p> : null}
        <button type="submit" disabled={state.busy}>{state.busy ? t.working : t.changePassword}</button>
      </form>
    </section>
  );
}
