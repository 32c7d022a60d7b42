import { randomBytes, randomUUID, scryptSync } from 'node:crypto';
import type { AuditEntryView, ListPage, MerchantEventView, RefundView, PaymentView } from '@pp/contracts';
import { genuineTransfer, TestStack, waitFor } from '@pp/testing';
import { DashboardBrowser, GatewayApi, type ProvisionedMerchant, signInAsNewUser } from './testing/dashboard-client';

/*
 * The dashboard's /api over real services (docs/ARCHITECTURE.md "Dashboard"):
 * sign-in and its session, the Origin and CSRF checks, roles enforced by the
 * server, merchants and modes isolated, and the platform admins' refund queue.
 */

interface PaymentDetail {
  payment: PaymentView;
  session: Record<string, unknown> | null;
  events: MerchantEventView[];
  refunds: RefundView[];
}

describe('dashboard /api', () => {
  let stack: TestStack;
  let gateway: GatewayApi;
  let a: ProvisionedMerchant;
  let b: ProvisionedMerchant;
  let owner: DashboardBrowser;

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['gateway', 'sessions', 'ledger', 'refunds', 'webhooks', 'dashboard'],
      label: 'dashboard-api',
      // Every sign-in here comes from 127.0.0.1: the per-address limit is tested by the per-account one's mechanism.
      env: { DASHBOARD_SECURE_COOKIE: 'false', DASHBOARD_LOGINS_PER_ADDRESS: '1000', RATE_LIMIT_TEST_PER_SECOND: '5000' },
    });
    gateway = new GatewayApi(stack);
    [a, b] = await Promise.all([gateway.createMerchant('A'), gateway.createMerchant('B')]);
    owner = new DashboardBrowser(stack.url('dashboard'));
    expect((await owner.login(a.dashboard_user.email, a.dashboard_user.password)).status).toBe(200);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function simulated(merchant: ProvisionedMerchant, browser: DashboardBrowser, outcome = 'confirmed'): Promise<PaymentView> {
    const session = await gateway.createSession(merchant);
    const result = await browser.post<{ transaction: PaymentView }>('/api/sandbox/simulate', { session_id: session.id, outcome });
    expect(result.status).toBe(200);
    return result.body.transaction;
  }

  describe('sign-in', () => {
    it('given the owner’s password, then it answers the user and a CSRF token and sets an HttpOnly, SameSite=Lax session cookie', async () => {
      const browser = new DashboardBrowser(stack.url('dashboard'));
      const result = await browser.login(a.dashboard_user.email.toUpperCase(), a.dashboard_user.password);
      expect(result.status).toBe(200);
      expect(result.body).toEqual({
        user: { id: a.dashboard_user.id, email: a.dashboard_user.email, role: 'owner', merchant_id: a.merchant_id },
        csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/),
      });
      const cookie = result.headers.get('set-cookie')!;
      expect(cookie).toMatch(/^pp_dashboard=[A-Za-z0-9_-]{40,}; Path=\/; HttpOnly; SameSite=Lax$/);
      expect((await browser.get('/api/auth/session')).body).toEqual(result.body);
    });

    it('given an unknown e-mail or a wrong password, then both answer the same 401', async () => {
      const browser = new DashboardBrowser(stack.url('dashboard'));
      const unknown = await browser.login('nobody@example.com', 'whatever-password');
      const wrong = await browser.login(b.dashboard_user.email, 'wrong-password-123');
      expect([unknown.status, unknown.body]).toEqual([401, { error: 'Invalid email or password' }]);
      expect([wrong.status, wrong.body]).toEqual([401, { error: 'Invalid email or password' }]);
      expect(unknown.headers.get('set-cookie')).toBeNull();
    });

    it('given a password hashed with the earlier scrypt cost, then a sign-in remakes the hash at today\'s and ends no session', async () => {
      const merchant = await gateway.createMerchant('Rehashed');
      const { email, password, id } = merchant.dashboard_user;
      const db = await stack.sql();
      const salt = randomBytes(16);
      const earlier = ['scrypt', 32768, 8, 1, salt.toString('base64url'), scryptSync(password, salt, 32, { N: 32768, r: 8, p: 1, maxmem: 64 << 20 }).toString('base64url')].join('$');
      await db.query('UPDATE gateway.dashboard_users SET password_hash = $2 WHERE id = $1', [id, earlier]);
      const stored = async () => (await db.query('SELECT password_hash, credential_version FROM gateway.dashboard_users WHERE id = $1', [id])).rows[0];
      const versionBefore = (await stored()).credential_version;
      const open = new DashboardBrowser(stack.url('dashboard'));
      expect((await open.login(email, password)).status).toBe(200);
      const after = await stored();
      expect(after.password_hash).toMatch(/^scrypt\$32768\$8\$3\$/);
      expect(after.credential_version).toBe(versionBefore);
      const again = new DashboardBrowser(stack.url('dashboard'));
      expect((await again.login(email, password)).status).toBe(200);
      expect((await stored()).password_hash).toBe(after.password_hash);
      expect((await open.get('/api/auth/session')).status).toBe(200);
    });

    it('given too many attempts on one account, then further attempts are refused with 429 and Retry-After, even with the right password', async () => {
      const target = await gateway.createMerchant('Guessed');
      const browser = new DashboardBrowser(stack.url('dashboard'));
      for (let attempt = 0; attempt < 10; attempt += 1) expect((await browser.login(target.dashboard_user.email, `guess-${attempt}-password`)).status).toBe(401);
      const refused = await browser.login(target.dashboard_user.email, target.dashboard_user.password);
      expect([refused.status, refused.body]).toEqual([429, { error: 'Too many sign-in attempts; try again later' }]);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    /** A sign-in from a client address of the test's choosing (X-Forwarded-For, believed from loopback: TRUSTED_PROXIES). */
    const loginFrom = (address: string, email: string, password: string) =>
      new DashboardBrowser(stack.url('dashboard')).post<{ error?: string }>('/api/auth/login', { email, password }, { 'x-forwarded-for': address });

    it('given an account’s attempts spent from one address, even with refused attempts on top, then its owner still signs in from another address', async () => {
      const target = await gateway.createMerchant('Locked out from elsewhere');
      const { email, password } = target.dashboard_user;
      for (let attempt = 0; attempt < 10; attempt += 1) expect((await loginFrom('203.0.113.10', email, `guess-${attempt}-password`)).status).toBe(401);
      // Refused attempts cost the attacker nothing and must cost the account-wide budget (100) nothing either.
      for (let attempt = 0; attempt < 100; attempt += 1) expect((await loginFrom('203.0.113.10', email, 'guess-password')).status).toBe(429);
      const refused = await loginFrom('203.0.113.10', email, password);
      expect([refused.status, refused.body]).toEqual([429, { error: 'Too many sign-in attempts; try again later' }]);

      expect((await loginFrom('198.51.100.20', email, password)).status).toBe(200);
    });

    it('given guesses spread over many addresses, then past 100 attempts on the account it is refused from a fresh address too, with Retry-After', async () => {
      const target = await gateway.createMerchant('Guessed from everywhere');
      const { email, password } = target.dashboard_user;
      // Two lanes of five addresses, as many as the gateway hashes at once: more would only queue behind its hashing
      // slots, and on a loaded machine a sign-in queued behind eight others can outlast the bus deadline (503).
      await Promise.all(
        [0, 1].map(async (lane) => {
          for (let address = lane * 5 + 1; address <= lane * 5 + 5; address += 1) {
            for (let attempt = 0; attempt < 10; attempt += 1) expect((await loginFrom(`192.0.2.${address}`, email, `guess-${attempt}-password`)).status).toBe(401);
          }
        }),
      );
      const refused = await loginFrom('192.0.2.200', email, password);
      expect([refused.status, refused.body]).toEqual([429, { error: 'Too many sign-in attempts; try again later' }]);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it('given an e-mail typed with a character Postgres’ lower() folds into the stored one but JavaScript does not (U+0130 İ for i), then it signs no one in, so no spelling of the account gets sign-in counters of its own', async () => {
      const email = `tim-${randomUUID()}@example.com`;
      const created = await gateway.call<ProvisionedMerchant>('/v1/admin/merchants', stack.env.ADMIN_TOKEN!, { name: 'Dotted I', email });
      expect(created.status).toBe(201);
      const spelled = email.replace('tim', 't\u0130m');
      // This database's locale (libc) finds the account by that spelling: the gateway's own lookup alone would sign it in.
      const found = await (await stack.sql()).query('SELECT id FROM gateway.dashboard_users WHERE lower(email) = lower($1)', [spelled]);
      expect(found.rows).toEqual([{ id: created.body.dashboard_user.id }]);

      const answer = await loginFrom('203.0.113.30', spelled, created.body.dashboard_user.password);
      expect([answer.status, answer.body]).toEqual([401, { error: 'Invalid email or password' }]);
      expect((await loginFrom('203.0.113.30', email.toUpperCase(), created.body.dashboard_user.password)).status).toBe(200);
    });

    it('given the current password, then a user changes it and signs in with the new one only; a wrong current password is 403', async () => {
      const merchant = await gateway.createMerchant('Password');
      const browser = await signedIn(merchant);
      const wrong = await browser.post('/api/auth/password', { current_password: 'not-it-at-all', new_password: 'a brand new passphrase' });
      expect([wrong.status, wrong.body]).toEqual([403, { error: 'Current password is wrong' }]);
      expect((await browser.post('/api/auth/password', { current_password: merchant.dashboard_user.password, new_password: 'short' })).status).toBe(400);
      expect((await browser.changePassword(merchant.dashboard_user.password, 'a brand new passphrase')).status).toBe(200);
      expect((await new DashboardBrowser(stack.url('dashboard')).login(merchant.dashboard_user.email, merchant.dashboard_user.password)).status).toBe(401);
      expect((await new DashboardBrowser(stack.url('dashboard')).login(merchant.dashboard_user.email, 'a brand new passphrase')).status).toBe(200);
    });

    it('given another browser signed in as the same user, when the password changes, then both old sessions end and the changing browser goes on with a new cookie and CSRF token, answered as a sign-in answers them', async () => {
      const merchant = await gateway.createMerchant('Stolen session');
      const other = await signedIn(merchant);
      const browser = await signedIn(merchant);
      // What a thief of this browser's session holds: its cookie and its CSRF token.
      const stolen = Object.assign(new DashboardBrowser(stack.url('dashboard')), { cookie: browser.cookie, csrfToken: browser.csrfToken });
      expect((await stolen.get('/api/auth/session')).status).toBe(200);

      const changed = await browser.changePassword(merchant.dashboard_user.password, 'a brand new passphrase');
      expect(changed.status).toBe(200);
      expect(changed.body).toEqual({
        user: { id: merchant.dashboard_user.id, email: merchant.dashboard_user.email, role: 'owner', merchant_id: merchant.merchant_id },
        csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/),
      });
      expect(changed.headers.get('set-cookie')).toMatch(/^pp_dashboard=[A-Za-z0-9_-]{40,}; Path=\/; HttpOnly; SameSite=Lax$/);
      expect(changed.headers.get('cache-control')).toBe('no-store');
      expect(browser.cookie).not.toBe(stolen.cookie);
      expect(browser.csrfToken).not.toBe(stolen.csrfToken);

      // The old cookie is signed out, for reading and for acting; so is the other browser.
      expect((await stolen.get('/api/auth/session')).status).toBe(401);
      expect((await stolen.post('/api/developers/keys', { type: 'secret' })).status).toBe(401);
      expect((await other.get('/api/auth/session')).status).toBe(401);
      // The new cookie works, with the new token only.
      expect((await browser.get('/api/auth/session')).body).toEqual(changed.body);
      expect((await browser.post('/api/developers/keys', { type: 'publishable' }, { 'x-csrf-token': stolen.csrfToken })).status).toBe(403);
      expect((await browser.post('/api/developers/keys', { type: 'publishable' })).status).toBe(201);
      expect((await browser.post('/api/auth/logout')).status).toBe(204);
    });

    it('given guesses of the current password from a session, then past the account’s limit they are refused with 429, even the right one', async () => {
      const merchant = await gateway.createMerchant('Guessed from a session');
      const browser = await signedIn(merchant);
      for (let attempt = 0; attempt < 10; attempt += 1) {
        expect((await browser.post('/api/auth/password', { current_password: `guess-${attempt}-password`, new_password: 'a brand new passphrase' })).status).toBe(403);
      }
      const refused = await browser.post('/api/auth/password', { current_password: merchant.dashboard_user.password, new_password: 'a brand new passphrase' });
      expect([refused.status, refused.body]).toEqual([429, { error: 'Too many sign-in attempts; try again later' }]);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // The password did not change, and the trail shows each wrong guess (the refused one past the limit is not recorded, as for sign-ins).
      expect((await new DashboardBrowser(stack.url('dashboard')).login(merchant.dashboard_user.email, 'a brand new passphrase')).status).not.toBe(200);
      const trail = (await browser.get<ListPage<AuditEntryView>>('/api/audit?action=auth.password_changed&limit=50')).body.data;
      expect(trail.map(({ outcome, actor_id, target_id }) => ({ outcome, actor_id, target_id }))).toEqual(
        Array.from({ length: 10 }, () => ({ outcome: 'failure', actor_id: merchant.dashboard_user.id, target_id: merchant.dashboard_user.id })),
      );
      expect(JSON.stringify(trail)).not.toContain('guess-');
    });

    it('given no session cookie, then the session route answers 401', async () => {
      expect((await new DashboardBrowser(stack.url('dashboard')).get('/api/auth/session')).status).toBe(401);
    });

    it('given a sign-out, then the old cookie no longer signs anyone in', async () => {
      const browser = new DashboardBrowser(stack.url('dashboard'));
      await browser.login(a.dashboard_user.email, a.dashboard_user.password);
      expect((await browser.post('/api/auth/logout')).status).toBe(204);
      expect((await browser.get('/api/auth/session')).status).toBe(401);
    });

    it('given a sign-in in a browser already signed in, then the session of the cookie it came with ends (401) once the new sign-in succeeded; a wrong password ends nothing', async () => {
      const browser = await signedIn(a);
      /** What the browser holds now: a copy of its cookie and CSRF token, as another tab or a thief would keep them. */
      const held = () => Object.assign(new DashboardBrowser(stack.url('dashboard')), { cookie: browser.cookie, csrfToken: browser.csrfToken });
      const first = held();
      expect((await first.get('/api/auth/session')).status).toBe(200);

      expect((await browser.login(a.dashboard_user.email, 'not-the-password-at-all')).status).toBe(401);
      expect(browser.cookie).toBe(first.cookie);
      expect((await first.get('/api/auth/session')).status).toBe(200);

      // The same user again, in the same browser: the new cookie replaces the old, and the old no longer signs anyone in.
      expect((await browser.login(a.dashboard_user.email, a.dashboard_user.password)).status).toBe(200);
      expect(browser.cookie).not.toBe(first.cookie);
      expect((await first.get('/api/auth/session')).status).toBe(401);
      expect((await first.post('/api/developers/keys', { type: 'publishable' })).status).toBe(401);
      expect((await browser.get('/api/auth/session')).status).toBe(200);

      // Another user of the merchant in the same browser: the owner's session there ends too; the other user's own browser keeps theirs.
      const second = held();
      const viewer = await signInAsNewUser(stack, a, 'viewer');
      const { email } = (await viewer.get<{ user: { email: string } }>('/api/auth/session')).body.user;
      expect((await browser.login(email, a.dashboard_user.password)).status).toBe(200);
      expect((await second.get('/api/auth/session')).status).toBe(401);
      expect((await browser.get<{ user: { email: string } }>('/api/auth/session')).body.user.email).toBe(email);
      expect((await viewer.get('/api/auth/session')).status).toBe(200);
    });
  });

  describe('cross-site requests', () => {
    it('given no X-CSRF-Token or a wrong one, then a state-changing route answers 403 and does nothing', async () => {
      const session = await gateway.createSession(a);
      for (const token of ['', 'forged-token']) {
        const refused = await owner.post('/api/sandbox/simulate', { session_id: session.id, outcome: 'confirmed' }, { 'x-csrf-token': token });
        expect([refused.status, refused.body]).toEqual([403, { error: 'Missing or wrong CSRF token' }]);
      }
      const sessions = await owner.get<ListPage<{ id: string; status: string }>>('/api/checkout-sessions');
      expect(sessions.body.data.find((listed) => listed.id === session.id)?.status).toBe('PENDING');
    });

    it('given another site’s Origin, even with the right token, then it answers 403; so does a sign-in posted from another site', async () => {
      const session = await gateway.createSession(a);
      const evil = new DashboardBrowser(stack.url('dashboard'), 'https://evil.example');
      evil.cookie = owner.cookie;
      evil.csrfToken = owner.csrfToken;
      const refused = await evil.post('/api/sandbox/simulate', { session_id: session.id, outcome: 'confirmed' });
      expect([refused.status, refused.body]).toEqual([403, { error: 'Cross-site request refused' }]);
      expect((await evil.login(a.dashboard_user.email, a.dashboard_user.password)).status).toBe(403);
    });
  });

  describe('payments', () => {
    it('given a simulated test payment, then the list (filtered by status) and the detail show it CONFIRMED with its session and events, and no client secret', async () => {
      const payment = await simulated(a, owner);
      const listed = await owner.get<ListPage<PaymentView>>('/api/payments?status=CONFIRMED');
      expect(listed.body.data.map((row) => row.id)).toContain(payment.id);
      const detail = await waitFor('the payment’s events', async () => {
        const found = await owner.get<PaymentDetail>(`/api/payments/${payment.id}`);
        return found.body.events.length > 0 ? found : undefined;
      });
      expect(detail.body.payment).toMatchObject({ id: payment.id, status: 'CONFIRMED', livemode: false });
      expect(detail.body.session).toMatchObject({ id: payment.session_id, status: 'COMPLETED' });
      expect(detail.body.session).not.toHaveProperty('client_secret');
      expect(detail.body.events.map((event) => event.type)).toContain('payment.confirmed');
    });

    it('given another merchant’s payment or the other mode, then it answers 404', async () => {
      const theirs = await simulated(b, await signedIn(b));
      expect((await owner.get(`/api/payments/${theirs.id}`)).status).toBe(404);
      expect((await owner.post(`/api/payments/${theirs.id}/refund`, {})).status).toBe(404);
      const mine = await simulated(a, owner);
      expect((await owner.get(`/api/payments/${mine.id}?mode=live`)).status).toBe(404);
    });

    it('given a mode other than live or test (a typo, the parameter twice), then 400 naming the values, not the test mode', async () => {
      const mine = await simulated(a, owner);
      expect((await owner.get(`/api/payments/${mine.id}?mode=test`)).status).toBe(200);
      for (const mode of ['LIVE', 'prod', 'live&mode=live']) {
        const answer = await owner.get<{ error: string }>(`/api/payments/${mine.id}?mode=${mode}`);
        expect([mode, answer.status, answer.body.error]).toEqual([mode, 400, 'Validation failed: mode must be live or test']);
      }
      const refund = await owner.post<{ error: string }>(`/api/payments/${mine.id}/refund?mode=Live`, {});
      expect(refund.status).toBe(400);
      expect((await owner.get<PaymentDetail>(`/api/payments/${mine.id}`)).body.payment).toMatchObject({ status: 'CONFIRMED' });
    });

    it('given a malformed session cursor or simulated session id, then 400 at the edge', async () => {
      expect((await owner.get<{ error: string }>('/api/checkout-sessions?starting_after=not_an_id')).body.error).toMatch(/starting_after must be a checkout session id/);
      const simulate = await owner.post<{ error: string }>('/api/sandbox/simulate', { session_id: 'NOT-AN-ID', outcome: 'confirmed' });
      expect(simulate.status).toBe(400);
      expect(simulate.body.error).toMatch(/session_id must be a checkout session id/);
    });

    it('given the owner, when requesting a test refund, then it answers 201 with the refund', async () => {
      const payment = await simulated(a, owner);
      const refund = await owner.post<RefundView>(`/api/payments/${payment.id}/refund`, { reason: 'customer asked' });
      expect(refund.status).toBe(201);
      expect(refund.body).toMatchObject({ payment_id: payment.id, requested_by: a.dashboard_user.id, reason: 'customer asked' });
    });

    it('given a refund request without an Idempotency-Key, as DESIGN §4 shows it, then it answers 201 with the refund; repeated, it is refused as a second refund', async () => {
      const payment = await simulated(a, owner);
      const path = `/api/payments/${payment.id}/refund`;
      const refund = await owner.post<RefundView>(path, { reason: 'no key' }, { 'idempotency-key': undefined });
      expect(refund.status).toBe(201);
      expect(refund.body).toMatchObject({ payment_id: payment.id, reason: 'no key' });
      expect((await owner.post(path, { reason: 'no key' }, { 'idempotency-key': undefined })).status).toBe(409);
      expect((await owner.get<PaymentDetail>(`/api/payments/${payment.id}`)).body.refunds.map(({ id }) => id)).toEqual([refund.body.id]);
    });

    it('given a refund request repeated with its Idempotency-Key (its answer lost), then the refund it made is answered again and audited as a repeat; another payment under that key is refused', async () => {
      const payment = await simulated(a, owner);
      const path = `/api/payments/${payment.id}/refund`;
      const sameAction = { 'idempotency-key': randomUUID() };
      const first = await owner.post<RefundView>(path, { reason: 'answer lost' }, sameAction);
      expect(first.status).toBe(201);
      const again = await owner.post<RefundView>(path, { reason: 'answer lost' }, sameAction);
      expect({ status: again.status, id: again.body.id, hit: again.headers.get('x-cache-lookup') }).toEqual({ status: 200, id: first.body.id, hit: 'HIT' });
      const other = await simulated(a, owner);
      const reused = await owner.post(`/api/payments/${other.id}/refund`, { reason: 'answer lost' }, sameAction);
      expect(reused.status).toBe(400);
      expect((await owner.get<PaymentDetail>(`/api/payments/${other.id}`)).body.refunds).toEqual([]);
      expect((await owner.post(path, {}, { 'idempotency-key': 'x'.repeat(129) })).status).toBe(400);

      const trail = (await owner.get<ListPage<AuditEntryView>>('/api/audit?action=refund.requested&limit=50')).body.data.filter((entry) => entry.target_id === first.body.id);
      expect(trail.map(({ detail }) => detail)).toEqual(['answer lost; a repeated request, answered again', 'answer lost']);
    });

    it('given a failed simulation repeated with its Idempotency-Key (its answer lost), then the one payment it made is answered again and audited as a repeat; without a key, each is a new attempt', async () => {
      const session = await gateway.createSession(a);
      const sameAction = { 'idempotency-key': randomUUID() };
      const simulate = (headers: Record<string, string | undefined>) =>
        owner.post<{ transaction: PaymentView; session: Record<string, unknown> }>('/api/sandbox/simulate', { session_id: session.id, outcome: 'failed' }, headers);
      const first = await simulate(sameAction);
      expect([first.status, first.body.transaction.status, first.headers.get('x-cache-lookup')]).toEqual([200, 'FAILED', null]);
      const again = await simulate(sameAction);
      expect({ status: again.status, id: again.body.transaction.id, hit: again.headers.get('x-cache-lookup') }).toEqual({ status: 200, id: first.body.transaction.id, hit: 'HIT' });
      expect(again.body.session).not.toHaveProperty('client_secret');
      const onSession = async () => (await owner.get<{ payments: PaymentView[] }>(`/api/checkout-sessions/${session.id}`)).body.payments.map(({ id }) => id);
      expect(await onSession()).toEqual([first.body.transaction.id]);
      const trail = (await owner.get<ListPage<AuditEntryView>>('/api/audit?action=payment.simulated&limit=50')).body.data.filter((entry) => entry.target_id === first.body.transaction.id);
      expect(trail.map(({ detail }) => detail)).toEqual(['FAILED; a repeated request, answered again', 'FAILED']);

      // DESIGN's interface, without the header: answered as before, each request a new attempt.
      const unkeyed = await simulate({ 'idempotency-key': undefined });
      expect([unkeyed.status, unkeyed.body.transaction.status, unkeyed.headers.get('x-cache-lookup')]).toEqual([200, 'FAILED', null]);
      expect(unkeyed.body.transaction.id).not.toBe(first.body.transaction.id);
      expect((await onSession()).sort()).toEqual([first.body.transaction.id, unkeyed.body.transaction.id].sort());
    });

    it('given a payment under review, when an administrator verifies it, then it is CONFIRMED by MANUAL_ADMIN with who verified it; a developer may not', async () => {
      const payment = await simulated(a, owner, 'requires_manual_review');
      expect(payment.status).toBe('REQUIRES_MANUAL_REVIEW');
      const developer = await addUser(a, 'developer');
      expect((await developer.post(`/api/payments/${payment.id}/verify`)).status).toBe(403);
      const administrator = await addUser(a, 'administrator');
      const verified = await administrator.post<PaymentView>(`/api/payments/${payment.id}/verify`);
      expect(verified.status).toBe(200);
      expect(verified.body).toMatchObject({ id: payment.id, status: 'CONFIRMED', verification_method: 'MANUAL_ADMIN', verified_by: expect.stringMatching(/^usr_administrator/) });

      // The owner's late click changes nothing, and the trail says so: one verifier.
      const late = await owner.post<PaymentView>(`/api/payments/${payment.id}/verify`);
      expect([late.status, late.body.verified_by]).toEqual([200, verified.body.verified_by]);
      const trail = (await owner.get<ListPage<AuditEntryView>>('/api/audit?action=payment.verified')).body.data.filter((entry) => entry.target_id === payment.id);
      expect(trail.map(({ actor_id, detail }) => ({ actor_id, detail }))).toEqual([
        { actor_id: a.dashboard_user.id, detail: `already confirmed (MANUAL_ADMIN by ${verified.body.verified_by})` },
        { actor_id: verified.body.verified_by, detail: null },
      ]);
    });

    it('given a viewer, when requesting a refund or simulating, then it answers 403 and no refund exists', async () => {
      const payment = await simulated(a, owner);
      const viewer = await addUser(a, 'viewer');
      const refused = await viewer.post(`/api/payments/${payment.id}/refund`, {});
      expect([refused.status, refused.body]).toEqual([403, { error: 'Your role does not allow this action' }]);
      expect((await viewer.post('/api/sandbox/simulate', { session_id: 'cs_x', outcome: 'confirmed' })).status).toBe(403);
      expect((await viewer.get<PaymentDetail>(`/api/payments/${payment.id}`)).body.refunds).toEqual([]);
    });
  });

  describe('developers', () => {
    it('given the owner, when creating a restricted live key and revoking it, then the key works until revoked and then gets 401 from the API', async () => {
      const created = await owner.post<{ id: string; key: string; type: string; scopes: string[]; redacted: string }>('/api/developers/keys?mode=live', {
        type: 'restricted',
        scopes: ['payments.read'],
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ type: 'restricted', scopes: ['payments.read'], key: expect.stringMatching(/^pp_rk_/) });
      const listed = await owner.get<{ keys: { id: string; redacted: string }[] }>('/api/developers/keys?mode=live');
      expect(listed.body.keys[0]).toEqual(expect.objectContaining({ id: created.body.id, redacted: created.body.redacted }));
      expect(JSON.stringify(listed.body)).not.toContain(created.body.key);
      expect((await gateway.call('/v1/payments', created.body.key)).status).toBe(200);

      expect((await owner.get('/api/developers/keys')).body).not.toEqual(listed.body);
      expect((await owner.post(`/api/developers/keys/${created.body.id}/revoke`)).status).toBe(404);
      const revoked = await owner.post<{ revoked_at: string | null }>(`/api/developers/keys/${created.body.id}/revoke?mode=live`);
      expect(revoked.body.revoked_at).toEqual(expect.any(String));
      expect((await gateway.call('/v1/payments', created.body.key)).status).toBe(401);
    });

    it('given a restricted key with an unknown scope or another merchant’s key id, then 400 and 404', async () => {
      const bad = await owner.post('/api/developers/keys?mode=live', { type: 'restricted', scopes: ['everything'] });
      expect(bad.status).toBe(400);
      const theirs = await (await signedIn(b)).post<{ id: string }>('/api/developers/keys', { type: 'secret' });
      expect((await owner.post(`/api/developers/keys/${theirs.body.id}/revoke`)).status).toBe(404);
    });

    it('given a viewer, when creating a key or an endpoint, then 403; a developer may', async () => {
      const viewer = await addUser(a, 'viewer');
      expect((await viewer.post('/api/developers/keys', { type: 'secret' })).status).toBe(403);
      expect((await viewer.post('/api/developers/webhook-endpoints', { url: 'https://shop.example/hook' })).status).toBe(403);
      const developer = await addUser(a, 'developer');
      expect((await developer.post('/api/developers/keys', { type: 'publishable' })).status).toBe(201);
      expect((await developer.post(`/api/payments/${(await simulated(a, owner)).id}/refund`, {})).status).toBe(403);
    });

    it('given a webhook endpoint created on the dashboard, then its secret is shown once, its events list their delivery attempts', async () => {
      const endpoint = await owner.post<{ id: string; secret: string }>('/api/developers/webhook-endpoints', { url: 'http://127.0.0.1:9/hook' });
      expect(endpoint.status).toBe(201);
      expect(endpoint.body.secret).toMatch(/^whsec_/);
      const listed = await owner.get<{ endpoints: { id: string }[] }>('/api/developers/webhook-endpoints');
      expect(listed.body.endpoints.map((row) => row.id)).toContain(endpoint.body.id);
      expect(JSON.stringify(listed.body)).not.toContain(endpoint.body.secret);

      // Rotated as a leak calls for: the old secret stops signing at once; an overlap past a day is refused.
      const rotated = await owner.post<{ secret: string; previous_secret_expires_at: string }>(`/api/developers/webhook-endpoints/${endpoint.body.id}/rotate-secret`, { previous_secret_expires_in: 0 });
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).not.toBe(endpoint.body.secret);
      expect(Date.parse(rotated.body.previous_secret_expires_at)).toBeLessThanOrEqual(Date.now());
      const rotations = await owner.get<ListPage<AuditEntryView>>('/api/audit?action=webhook_endpoint.secret_rotated');
      expect(rotations.body.data).toContainEqual(
        expect.objectContaining({ target_id: endpoint.body.id, detail: `previous secret stops signing at ${rotated.body.previous_secret_expires_at}` }),
      );
      const tooLong = await owner.post<{ error: string }>(`/api/developers/webhook-endpoints/${endpoint.body.id}/rotate-secret`, { previous_secret_expires_in: 90_000 });
      expect(tooLong).toMatchObject({ status: 400, body: { error: 'Validation failed: previous_secret_expires_in must be between 0 and 86400' } });

      const payment = await simulated(a, owner);
      const event = await waitFor('the payment.confirmed event', async () => {
        const page = await owner.get<ListPage<MerchantEventView>>('/api/events?type=payment.confirmed');
        return page.body.data.find((row) => row.data.payment_id === payment.id);
      });
      const detail = await waitFor('a delivery attempt', async () => {
        const found = await owner.get<{ id: string; deliveries: { webhook_id: string }[] }>(`/api/events/${event.id}`);
        return found.body.deliveries.length > 0 ? found.body : undefined;
      });
      expect(detail.deliveries.map((delivery) => delivery.webhook_id)).toContain(endpoint.body.id);
      // A resend retried under its key (its answer lost) is answered what it queued, and queues nothing more.
      const resendKey = { 'idempotency-key': randomUUID() };
      const resent = await owner.post<{ webhook_ids: string[] }>(`/api/events/${event.id}/resend`, {}, resendKey);
      expect(resent).toMatchObject({ status: 200, body: { webhook_ids: [endpoint.body.id] } });
      expect(resent.headers.get('x-cache-lookup')).toBeNull();
      const again = await owner.post<{ webhook_ids: string[] }>(`/api/events/${event.id}/resend`, {}, resendKey);
      expect(again).toMatchObject({ status: 200, body: { webhook_ids: [endpoint.body.id] } });
      expect(again.headers.get('x-cache-lookup')).toBe('HIT');
      expect((await owner.post(`/api/events/${event.id}/resend`, {}, { 'idempotency-key': undefined })).status).toBe(400);
      const trail = await owner.get<ListPage<AuditEntryView>>('/api/audit?action=event.resent');
      expect(trail.body.data.filter((entry) => entry.target_id === event.id).map((entry) => entry.detail)).toEqual([
        `${endpoint.body.id}; a repeated request, answered again`,
        endpoint.body.id,
      ]);
      expect(trail.body.data.find((entry) => entry.target_id === event.id)).toMatchObject({ actor_id: a.dashboard_user.id, livemode: false });
      expect((await (await signedIn(b)).get(`/api/events/${event.id}`)).status).toBe(404);
    });
  });

  describe('platform admins', () => {
    it('given a platform admin created with the admin token, then they sign in, see the live refund queue and walk a refund through every stage', async () => {
      const created = await gateway.call<{ id: string; email: string; password: string }>('/v1/admin/platform_admins', stack.env.ADMIN_TOKEN!, { email: 'ops@example.com' });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({ id: expect.stringMatching(/^usr_/), email: 'ops@example.com', password: expect.any(String) });
      const admin = new DashboardBrowser(stack.url('dashboard'));
      const signed = await admin.login('ops@example.com', created.body.password);
      expect(signed.body.user).toEqual({ id: created.body.id, email: 'ops@example.com', role: 'platform_admin' });

      const cancelled = await liveRefund();
      const viewer = await addUser(a, 'viewer');
      expect((await viewer.post(`/api/refunds/${cancelled.id}/cancel?mode=live`)).status).toBe(403);
      expect((await owner.post(`/api/refunds/${cancelled.id}/cancel`)).status).toBe(404);
      expect((await owner.post<RefundView>(`/api/refunds/${cancelled.id}/cancel?mode=live`)).body.status).toBe('CANCELLED');

      const refund = await liveRefund();
      const queue = await admin.get<ListPage<RefundView>>('/api/admin/refunds?status=REQUESTED');
      expect(queue.body.data.map((listed) => listed.id)).toContain(refund.id);
      expect((await admin.post<RefundView>(`/api/admin/refunds/${refund.id}/approve`)).body.status).toBe('APPROVED');
      expect((await admin.post<RefundView>(`/api/admin/refunds/${refund.id}/mark-sent`)).body.status).toBe('SENT');
      const incomplete = await admin.post(`/api/admin/refunds/${refund.id}/complete`, { outbound_reference: 'CA1' });
      expect(incomplete.status).toBe(400);
      const completed = await admin.post<RefundView>(`/api/admin/refunds/${refund.id}/complete`, { outbound_reference: 'CA1', evidence_note: 'Deposit seen' });
      expect(completed.body).toMatchObject({ status: 'COMPLETED', outbound_reference: 'CA1' });

      const review = await simulated(b, await signedIn(b), 'requires_manual_review');
      const queue2 = await admin.get<ListPage<PaymentView & { merchant_id: string }>>('/api/admin/payments?status=REQUIRES_MANUAL_REVIEW');
      expect(queue2.body.data.find((row) => row.id === review.id)).toMatchObject({ merchant_id: b.merchant_id, review_reasons: expect.any(Array) });

      const found = await admin.get<{ data: { id: string; name: string }[] }>(`/api/admin/merchants?search=${encodeURIComponent(a.dashboard_user.email.slice(0, 12).toUpperCase())}`);
      expect(found.body.data.map((merchant) => merchant.id)).toEqual([a.merchant_id]);
      const created2 = await admin.post<{ merchant_id: string; keys: Record<string, string>; dashboard_user: { email: string; password: string } }>('/api/admin/merchants', {
        name: 'Console Shop',
        email: `console-${randomUUID().slice(0, 8)}@example.com`,
      });
      expect(created2.status).toBe(201);
      expect(created2.body.keys.test_secret).toMatch(/^pp_live_test_/);
      expect((await new DashboardBrowser(stack.url('dashboard')).login(created2.body.dashboard_user.email, created2.body.dashboard_user.password)).status).toBe(200);
      const deposit = `till-${randomUUID().slice(0, 8)}@shop.example`;
      const updated = await admin.request<{ etransfer_email: string; frame_ancestors: string[] }>('PATCH', `/api/admin/merchants/${created2.body.merchant_id}`, {
        etransfer_email: deposit,
        frame_ancestors: ['https://shop.example'],
        name: 'Console Shop Renamed',
      });
      expect(updated.body).toMatchObject({ etransfer_email: deposit, frame_ancestors: ['https://shop.example'], name: 'Console Shop Renamed' });
      const trail = await admin.get<ListPage<AuditEntryView>>(`/api/admin/audit?merchant_id=${created2.body.merchant_id}&limit=100`);
      expect(trail.body.data.map((entry) => [entry.action, entry.target_id, entry.detail])).toEqual(
        expect.arrayContaining([
          ['merchant.created', created2.body.merchant_id, `owner ${created2.body.dashboard_user.email}`],
          ['merchant.updated', created2.body.merchant_id, `deposit address none → ${deposit}; name Console Shop Renamed; frame ancestors https://shop.example`],
        ]),
      );
      expect((await admin.request('PATCH', `/api/admin/merchants/${a.merchant_id}`, { etransfer_email: deposit })).status).toBe(409);
      expect((await admin.request('PATCH', `/api/admin/merchants/${a.merchant_id}`, { frame_ancestors: ["https://x.example; script-src *"] })).status).toBe(400);
      expect((await owner.get('/api/admin/merchants')).status).toBe(403);

      expect((await admin.get('/api/payments')).status).toBe(403);
      expect((await owner.get('/api/admin/payments')).status).toBe(403);
      expect((await owner.get('/api/admin/refunds')).status).toBe(403);
      expect((await owner.post(`/api/admin/refunds/${refund.id}/approve`)).status).toBe(403);
    });
  });

  async function signedIn(merchant: ProvisionedMerchant): Promise<DashboardBrowser> {
    const browser = new DashboardBrowser(stack.url('dashboard'));
    expect((await browser.login(merchant.dashboard_user.email, merchant.dashboard_user.password)).status).toBe(200);
    return browser;
  }

  /** A user of another role with the owner's password (its hash copied), signed in. */
  const addUser = (merchant: ProvisionedMerchant, role: string): Promise<DashboardBrowser> => signInAsNewUser(stack, merchant, role);

  /** A live payment recorded from a transfer e-mail (as the ingest records it), and a refund requested through the dashboard. */
  async function liveRefund(): Promise<RefundView> {
    const session = await gateway.createSession(a, {}, a.keys.live_secret);
    const bus = await stack.bus(15_000);
    const payment = await bus.request('payments.record-transfer.v1', genuineTransfer(a.merchant_id, session.memo, { reference_number: `CA${Date.now()}` }));
    expect(payment.status).toBe('CONFIRMED');
    const refund = await owner.post<RefundView>(`/api/payments/${payment.id}/refund?mode=live`, {});
    expect(refund.status).toBe(201);
    return refund.body;
  }
});
