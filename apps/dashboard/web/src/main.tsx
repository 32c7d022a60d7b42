import { StrictMode, useCallback, useEffect, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { AccountPage } from './account';
import { AdminRefundsPage } from './admin-refunds';
import { AdminMerchantsPage } from './admin-merchants';
import { AdminReviewPage } from './admin-review';
import { DevelopersPage } from './developers';
import { api, ApiError, onSessionDoubt, rememberCsrfToken, type SignedIn } from './api';
import { failureText, meansSignedOut } from './api-failure.policy';
import { browserLanguage, I18n, type Language, MESSAGES, roleLabel, useI18n } from './i18n';
import { PaymentDetailPage } from './payment-detail';
import { PaymentsPage } from './payments';
import { type Location, navigate, useLocation, withParams } from './router';
import { SessionsPage } from './sessions';
import { SignInPage } from './sign-in';
import './styles.css';
import { AdminAuditPage, AuditPage } from './audit';
import { TeamPage } from './team';
import { AdminQuarantinePage } from './admin-quarantine';
import { HomePage } from './home';
import { SessionDetailPage } from './session-detail';
import { NotFoundPage, PageBoundary } from './page-boundary';
import { useDocumentTitle, useHeadingFocus } from './page-announce';
import { documentTitle, pageHeading, type PageRoute, pageRoute } from './page-route.policy';
import { may } from './permissions';
import { ActionButton } from './ui';

function App() {
  const [language, setLanguage] = useState<Language>(browserLanguage);
  const i18n = useMemo(() => ({ t: MESSAGES[language], language, setLanguage }), [language]);
  const [signedIn, setSignedIn] = useState<SignedIn | null>();
  // A read of the session that failed otherwise than with a 401: whether the user is signed in is not known.
  const [unread, setUnread] = useState<{ failure: unknown }>();
  const readSession = useCallback(() => {
    setUnread(undefined);
    api<SignedIn>('/api/auth/session').then(
      (session) => {
        rememberCsrfToken(session.csrf_token);
        setSignedIn(session);
      },
      (failure: unknown) => (meansSignedOut(failure) ? setSignedIn(null) : setUnread({ failure })),
    );
  }, []);
  useEffect(readSession, [readSession]);
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
      {signedIn === undefined ? (
        unread ? <SessionUnread failure={unread.failure} retry={readSession} /> : null
      ) : signedIn === null ? <SignInPage onSignedIn={enter} /> : <Shell key={signedIn.user.id} signedIn={signedIn} onSignedOut={() => setSignedIn(null)} />}
    </I18n.Provider>
  );
}

/** The session could not be read (a 503, a 429, no answer): the error and a retry, not the sign-in form, since the user may well be signed in. */
function SessionUnread({ failure, retry }: { failure: unknown; retry: () => void }) {
  const { t } = useI18n();
  useDocumentTitle(documentTitle(t.sessionUnknown, t));
  return (
    <main className="sign-in">
      <h1>{t.sessionUnknown}</h1>
      <p role="alert" className="error">{failureText(failure, t)}</p>
      <button type="button" onClick={retry}>{t.retry}</button>
    </main>
  );
}

function Shell({ signedIn, onSignedOut }: { signedIn: SignedIn; onSignedOut: () => void }) {
  const location = useLocation();
  const { t, language, setLanguage } = useI18n();
  const mode = location.params.get('mode') === 'live' ? 'live' : 'test';
  const isAdmin = signedIn.user.role === 'platform_admin';
  const route = pageRoute(location.path, signedIn.user);
  useDocumentTitle(documentTitle(pageHeading(route, t), t));
  useHeadingFocus(location.path);
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
      if (!(failure instanceof ApiError && failure.status === 401)) throw new Error(`${t.signOutFailed} ${failureText(failure, t)}`);
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
          {/* A toggle: one name in both modes, its state in aria-pressed ("Live mode, pressed" or "not pressed"); a name that changed too would read "Test mode, not pressed". */}
          {!isAdmin ? (
            <button type="button" aria-pressed={mode === 'live'} onClick={() => navigate(withParams(location, { mode: mode === 'live' ? undefined : 'live', starting_after: undefined }))}>
              {t.liveMode}
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
      {/* A page that throws while it renders shows an error in its place; the header and its navigation stay. */}
      <main>
        <PageBoundary at={`${location.path}?${location.params.toString()}`}>
          <Page route={route} location={location} mode={mode} signedIn={signedIn} />
        </PageBoundary>
      </main>
    </>
  );
}

/** The page the path names (page-route.policy.ts): exactly, else not found. */
function Page({ route, location, mode, signedIn }: { route: PageRoute; location: Location; mode: string; signedIn: SignedIn }) {
  const user = signedIn.user;
  switch (route.page) {
    case 'account':
      return <AccountPage />;
    case 'admin-refunds':
      return <AdminRefundsPage location={location} />;
    case 'admin-review':
      return <AdminReviewPage location={location} />;
    case 'admin-merchants':
      return <AdminMerchantsPage location={location} />;
    case 'admin-audit':
      return <AdminAuditPage location={location} />;
    case 'admin-quarantine':
      return <AdminQuarantinePage location={location} />;
    case 'home':
      return <HomePage mode={mode} />;
    case 'payments':
      return <PaymentsPage location={location} mode={mode} />;
    case 'payment':
      return <PaymentDetailPage id={route.id} mode={mode} user={user} />;
    case 'checkout-sessions':
      return <SessionsPage location={location} mode={mode} user={user} />;
    case 'checkout-session':
      return <SessionDetailPage id={route.id} mode={mode} user={user} />;
    case 'developers':
      return <DevelopersPage location={location} mode={mode} user={user} />;
    case 'team':
      return <TeamPage user={user} />;
    case 'audit':
      return <AuditPage location={location} />;
    case 'not-found':
      return <NotFoundPage />;
  }
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
