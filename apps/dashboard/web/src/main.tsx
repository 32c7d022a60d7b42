import { type ReactNode, StrictMode, useCallback, useEffect, useMemo, useState } from 'react';
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
import { navigate, useLocation, withParams } from './router';
import { SessionsPage } from './sessions';
import { SignInPage } from './sign-in';
import './styles.css';
import { AdminAuditPage, AuditPage } from './audit';
import { TeamPage } from './team';
import { AdminQuarantinePage } from './admin-quarantine';
import { HomePage } from './home';
import { SessionDetailPage } from './session-detail';
import { NotFoundPage, PageBoundary } from './page-boundary';
import { decodeSegment } from './path-segment.policy';
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
          <Page location={location} mode={mode} signedIn={signedIn} />
        </PageBoundary>
      </main>
    </>
  );
}

/** The page the path names; a path for a page the role may not see, or with a malformed id, is not found. */
function Page({ location, mode, signedIn }: { location: ReturnType<typeof useLocation>; mode: string; signedIn: SignedIn }) {
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
  if (sessionDetail) return <Detail id={sessionDetail[1]}>{(id) => <SessionDetailPage id={id} mode={mode} user={signedIn.user} />}</Detail>;
  if (location.path === '/' || location.path === '/home') return <HomePage mode={mode} />;
  if (detail) return <Detail id={detail[1]}>{(id) => <PaymentDetailPage id={id} mode={mode} user={signedIn.user} />}</Detail>;
  if (location.path.startsWith('/developers')) return <DevelopersPage location={location} mode={mode} user={signedIn.user} />;
  // As the header's links: a role the server would refuse (403) gets no form to fill in vain.
  if (location.path === '/team') return may(signedIn.user, 'team.manage') ? <TeamPage user={signedIn.user} /> : <NotFoundPage />;
  if (location.path === '/audit') return may(signedIn.user, 'audit.read') ? <AuditPage location={location} /> : <NotFoundPage />;
  if (location.path.startsWith('/checkout-sessions')) return <SessionsPage location={location} mode={mode} user={signedIn.user} />;
  return <PaymentsPage location={location} mode={mode} />;
}

/** A detail page for the id in its path, decoded; a malformed one (`%E0%A4%A`) names no record: not found. */
function Detail({ id, children }: { id: string; children: (id: string) => ReactNode }) {
  const decoded = decodeSegment(id);
  return decoded === undefined ? <NotFoundPage /> : children(decoded);
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
