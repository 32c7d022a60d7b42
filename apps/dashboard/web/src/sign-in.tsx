import { type FormEvent, useState } from 'react';
import { api, type SignedIn } from './api';
import { failureText } from './api-failure.policy';
import { useI18n } from './i18n';
import { useDocumentTitle } from './page-announce';
import { documentTitle } from './page-route.policy';

export function SignInPage({ onSignedIn }: { onSignedIn: (signedIn: SignedIn) => void }) {
  const { t } = useI18n();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  useDocumentTitle(documentTitle(t.signIn, t));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      onSignedIn(await api<SignedIn>('/api/auth/login', { method: 'POST', body: { email, password } }));
    } catch (failure) {
      setError(failureText(failure, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="sign-in">
      <h1>{t.signIn}</h1>
      <form onSubmit={(event) => void submit(event)}>
        <label>
          {t.email}
          <input name="email" type="email" autoComplete="username" required value={email} onChange={(event) => setEmail(event.target.value)} />
        </label>
        <label>
          {t.password}
          <input name="password" type="password" autoComplete="current-password" required value={password} onChange={(event) => setPassword(event.target.value)} />
        </label>
        {error !== undefined ? <p role="alert" className="error">{error}</p> : null}
        <button type="submit" disabled={busy}>{busy ? t.signingIn : t.signIn}</button>
      </form>
    </main>
  );
}
