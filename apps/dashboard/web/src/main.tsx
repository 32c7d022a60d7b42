import { StrictMode, useEffect, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { AccountPage } from './account';
import { AdminRefundsPage } from './admin-refunds';
import { AdminMerchantsPage } from './admin-merchants';
import { AdminReviewPage } from './admin-review';
import { DevelopersPage } from './developers';
import { api, ApiError, onSessionDoubt, rememberCsrfToken, type SignedIn } from './api';
import { browserLanguage, I18n, type Language, MESSAGES, roleLabel, useI18n } from './i18n';
import { PaymentDetailPage } from './payment-detail';
import { PaymentsPage } from './payments';
import { navigate, useLocation, withParams } from './router';
import { SessionsPage } from './sessions';
import { SignInPage } from './sign-in';
import './styles.css';
import { AdminAuditPage, AuditPage } from './audit';
import { TeamPage } from './team';
import { AdminQuarantinePage } from './admin-quarantine';
import { HomePage } from './home';
import { SessionDetailPage } from './session-detail';
import { may } from './permissions';
import { ActionButton } from './ui';

function App() {
  const [language, setLanguage] = useState<Language>(browserLanguage);
  const i18n = useMemo(() => ({ t: MESSAGES[language], language, setLanguage }), [language]);
  const [signedIn, setSignedIn] = useState<SignedIn | null>();
  useEffect(() => {
    api<SignedIn>('/api/auth/session').then(
      (session) => {
        rememberCsrfToken(session.csrf_token);
        setSignedIn(session);
      },
      () => setSignedIn(null),
    );
  }, []);
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
  const enter = (session: SignedIn) => {
    rememberCsrfToken(session.csrf_token);
    setSignedIn(session);
    navigate(session.user.role === 'platform_admin' ? '/admin/refunds' : '/home');
  };
  // The session was read once, at start: an ended one goes back to sign-in; a replaced one is read again (a 401 there ends it too).
  useEffect(
    () =>
      onSessionDoubt((what) => {
        if (what === 'ended') return setSignedIn(null);
        void api<SignedIn>('/api/auth/session').then(
          (session) => (session.user.id === signedIn?.user.id ? rememberCsrfToken(session.csrf_token) : enter(session)),
          () => undefined,
        );
      }),
    [signedIn],
  );
  return (
    <I18n.Provider value={i18n}>
      {/* Keyed by user: another user's shell starts afresh, nothing of the previous one's pages kept. */}
      {signedIn === undefined ? null : signedIn === null ? <SignInPage onSignedIn={enter} /> : <Shell key={signedIn.user.id} signedIn={signedIn} onSignedOut={() => setSignedIn(null)} />}
    </I18n.Provider>
  );
}

function Shell({ signedIn, onSignedOut }: { signedIn: SignedIn; onSignedOut: () => void }) {
  const location = useLocation();
  const { t, language, setLanguage } = useI18n();
  const mode = location.params.get('mode') === 'live' ? 'live' : 'test';
  const isAdmin = signedIn.user.role === 'platform_admin';
  const link = (path: string, label: string) => (
    <a
      href={path}
      aria-current={location.path.startsWith(path) ? 'page' : undefined}
      onClick={(event) => {
        event.preventDefault();
        navigate(mode === 'live' && !isAdmin ? `${path}?mode=live` : path);
      }}
    >
      {label}
    </a>
  );
  // Signed out once the server says so: a refused or failed sign-out keeps the shell, its error shown beside the button
  // (ActionButton), since the session may well still be valid. A 401 means it had ended already.
  const signOut = async () => {
    try {
      await api('/api/auth/logout', { method: 'POST' });
    } catch (failure) {
      if (!(failure instanceof ApiError && failure.status === 401)) throw new Error(`${t.signOutFailed} ${failure instanceof Error ? failure.message : String(failure)}`);
    }
    onSignedOut();
    navigate('/');
  };
  return (
    <>
      <header className={mode === 'test' && !isAdmin ? 'test-mode' : undefined}>
        <nav aria-label="main">
          {isAdmin ? (
            <>
              {link('/admin/refunds', t.refundQueue)}
              {link('/admin/review', t.reviewQueue)}
              {link('/admin/merchants', t.merchants)}
              {link('/admin/audit', t.audit)}
              {link('/admin/quarantine', t.quarantine)}
            </>
          ) : (
            <>
              {link('/home', t.home)}
              {link('/payments', t.payments)}
              {link('/checkout-sessions', t.checkoutSessions)}
              {link('/developers', t.developers)}
              {may(signedIn.user, 'team.manage') ? link('/team', t.team) : null}
              {may(signedIn.user, 'audit.read') ? link('/audit', t.audit) : null}
            </>
          )}
        </nav>
        <div className="tools">
          {!isAdmin ? (
            <button type="button" aria-pressed={mode === 'live'} onClick={() => navigate(withParams(location, { mode: mode === 'live' ? undefined : 'live', starting_after: undefined }))}>
              {mode === 'live' ? t.liveMode : t.testMode}
            </button>
          ) : null}
          <label>
            <span className="visually-hidden">{t.language}</span>
            <select value={language} onChange={(event) => setLanguage(event.target.value as Language)}>
              <option value="en">English</option>
              <option value="fr">Français</option>
            </select>
          </label>
          <a
            href="/account"
            className="muted"
            onClick={(event) => {
              event.preventDefault();
              navigate('/account');
            }}
          >
            {signedIn.user.email} ({roleLabel(t, signedIn.user.role)})
          </a>
          <ActionButton label={t.signOut} run={signOut} />
        </div>
        {mode === 'test' && !isAdmin ? <p className="test-banner">{t.viewingTestData}</p> : null}
      </header>
      <main>{page(location, mode, signedIn)}</main>
    </>
  );
}

function page(location: ReturnType<typeof useLocation>, mode: string, signedIn: SignedIn) {
  const detail = /^\/payments\/([^/]+)$/.exec(location.path);
  if (location.path === '/account') return <AccountPage />;
  if (signedIn.user.role === 'platform_admin') {
    if (location.path.startsWith('/admin/review')) return <AdminReviewPage location={location} />;
    if (location.path.startsWith('/admin/merchants')) return <AdminMerchantsPage location={location} />;
    if (location.path.startsWith('/admin/audit')) return <AdminAuditPage location={location} />;
    if (location.path.startsWith('/admin/quarantine')) return <AdminQuarantinePage location={location} />;
    return <AdminRefundsPage location={location} />;
  }
  const sessionDetail = /^\/checkout-sessions\/([^/]+)$/.exec(location.path);
  if (sessionDetail) return <SessionDetailPage id={decodeURIComponent(sessionDetail[1])} mode={mode} user={signedIn.user} />;
  if (location.path === '/' || location.path === '/home') return <HomePage mode={mode} />;
  if (detail) return <PaymentDetailPage id={decodeURIComponent(detail[1])} mode={mode} user={signedIn.user} />;
  if (location.path.startsWith('/developers')) return <DevelopersPage location={location} mode={mode} user={signedIn.user} />;
  if (location.path === '/team') return <TeamPage user={signedIn.user} />;
  if (location.path === '/audit') return <AuditPage location={location} />;
  if (location.path.startsWith('/checkout-sessions')) return <SessionsPage location={location} mode={mode} user={signedIn.user} />;
  return <PaymentsPage location={location} mode={mode} />;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
