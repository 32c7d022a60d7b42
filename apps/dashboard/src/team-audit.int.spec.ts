import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AuditEntryView, ListPage, PaymentView } from '@pp/contracts';
import { TestStack } from '@pp/testing';
import { DashboardBrowser, GatewayApi, type ProvisionedMerchant } from './testing/dashboard-client';

/*
 * The Team routes, the audit trail and the per-address sign-in limit over
 * real services (docs/ARCHITECTURE.md "Dashboard", "Audit trail").
 */

/** Low enough to reach quickly, above the sign-ins the other tests here send from 127.0.0.1. */
const PER_ADDRESS = 25;

interface TeamUser {
  id: string;
  email: string;
  role: string;
  created_at: string;
  last_sign_in_at: string | null;
  password?: string;
}

/**
 * A sign-in sent from another loopback address (the dashboard sees it as request.ip), so its per-address budget is
 * this test's own; or, with `forwardedFor`, as a proxy on that address would send a client's.
 */
function loginFrom(baseUrl: string, address: string, email: string, password: string, forwardedFor?: string): Promise<{ status: number; body: unknown }> {
  const url = new URL('/api/auth/login', baseUrl);
  const payload = JSON.stringify({ email, password });
  const headers = { origin: url.origin, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) };
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      url,
      { method: 'POST', localAddress: address, headers },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
      },
    );
    sent.on('error', reject).end(payload);
  });
}

describe('dashboard team and audit', () => {
  let stack: TestStack;
  let gateway: GatewayApi;
  let a: ProvisionedMerchant;
  let b: ProvisionedMerchant;
  let owner: DashboardBrowser;
  let url: string;

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['gateway', 'sessions', 'ledger', 'refunds', 'dashboard'],
      label: 'dashboard-team',
      env: { DASHBOARD_SECURE_COOKIE: 'false', DASHBOARD_LOGINS_PER_ADDRESS: String(PER_ADDRESS), RATE_LIMIT_TEST_PER_SECOND: '5000' },
    });
    url = stack.url('dashboard');
    gateway = new GatewayApi(stack);
    [a, b] = await Promise.all([gateway.createMerchant('A'), gateway.createMerchant('B')]);
    owner = await signedIn(a.dashboard_user.email, a.dashboard_user.password);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function signedIn(email: string, password: string): Promise<DashboardBrowser> {
    const browser = new DashboardBrowser(url);
    expect((await browser.login(email, password)).status).toBe(200);
    return browser;
  }

  async function addUser(role: string, by = owner): Promise<TeamUser & { password: string }> {
    const added = await by.post<TeamUser & { password: string }>('/api/team/users', { email: `${role}-${randomUUID().slice(0, 8)}@example.com`, role });
    expect(added.status).toBe(201);
    return added.body;
  }

  async function auditOf(browser: DashboardBrowser, query = ''): Promise<AuditEntryView[]> {
    const page = await browser.get<ListPage<AuditEntryView>>(`/api/audit?limit=100${query}`);
    expect(page.status).toBe(200);
    return page.body.data;
  }

  describe('team', () => {
    it('given the owner, when adding a viewer, then the generated password signs them in once, the list shows their last sign-in, and a viewer may not manage the team', async () => {
      const viewer = await addUser('viewer');
      expect(viewer).toEqual({ id: expect.stringMatching(/^usr_/), email: viewer.email, role: 'viewer', created_at: expect.any(String), last_sign_in_at: null, password: expect.any(String) });
      const signed = await signedIn(viewer.email, viewer.password);
      const listed = await owner.get<{ users: TeamUser[] }>('/api/team/users');
      expect(listed.body.users[0]).toMatchObject({ id: a.dashboard_user.id, role: 'owner' });
      expect(listed.body.users.find((user) => user.id === viewer.id)).toEqual({ ...viewer, password: undefined, last_sign_in_at: expect.any(String) });
      expect(JSON.stringify(listed.body)).not.toContain(viewer.password);
      expect((await signed.get('/api/team/users')).status).toBe(403);
      expect((await signed.post('/api/team/users', { email: 'x@example.com', role: 'viewer' })).status).toBe(403);
      expect((await owner.post('/api/team/users', { email: viewer.email.toUpperCase(), role: 'developer' })).status).toBe(409);
      expect((await owner.post('/api/team/users', { email: 'new@example.com', role: 'owner' })).status).toBe(400);
    });

    it('given an audited change sent with a mode other than live or test, then 400 before it is made: no user added, so none left unaudited', async () => {
      const email = `typo-${randomUUID().slice(0, 8)}@example.com`;
      const refused = await owner.post<{ error: string }>('/api/team/users?mode=Live', { email, role: 'viewer' });
      expect([refused.status, refused.body.error]).toEqual([400, 'Validation failed: mode must be live or test']);
      const listed = await owner.get<{ users: TeamUser[] }>('/api/team/users');
      expect(listed.body.users.map((user) => user.email)).not.toContain(email);
    });

    it('given a signed-in user, when the owner changes their role, then their session ends and a new sign-in carries the new role', async () => {
      const user = await addUser('viewer');
      const session = await signedIn(user.email, user.password);
      const changed = await owner.request<TeamUser>('PATCH', `/api/team/users/${user.id}`, { role: 'administrator' });
      expect([changed.status, changed.body.role]).toEqual([200, 'administrator']);
      expect((await session.get('/api/auth/session')).status).toBe(401);
      const again = await signedIn(user.email, user.password);
      expect((await again.get<{ user: { role: string } }>('/api/auth/session')).body.user.role).toBe('administrator');
      expect((await again.get('/api/audit')).status).toBe(200);
    });

    it('given a signed-in user, when the owner removes them, then their open session gets 401 and they can no longer sign in', async () => {
      const user = await addUser('developer');
      const session = await signedIn(user.email, user.password);
      const removed = await owner.request('DELETE', `/api/team/users/${user.id}`);
      expect([removed.status, removed.body]).toEqual([200, { id: user.id, removed: true }]);
      expect((await session.get('/api/payments')).status).toBe(401);
      expect((await new DashboardBrowser(url).login(user.email, user.password)).status).toBe(401);
      expect((await owner.get<{ users: TeamUser[] }>('/api/team/users')).body.users.map((listed) => listed.id)).not.toContain(user.id);
      expect((await owner.request('DELETE', `/api/team/users/${user.id}`)).status).toBe(404);
    });

    it('given the owner, when removing or demoting themself, then 409 and they stay owner; another merchant’s user is 404', async () => {
      const self = await owner.request('DELETE', `/api/team/users/${a.dashboard_user.id}`);
      expect([self.status, self.body]).toEqual([409, { error: 'You cannot remove yourself or change your own role' }]);
      expect((await owner.request('PATCH', `/api/team/users/${a.dashboard_user.id}`, { role: 'viewer' })).status).toBe(409);
      expect((await owner.get<{ user: { role: string } }>('/api/auth/session')).body.user.role).toBe('owner');
      expect((await owner.request('PATCH', `/api/team/users/${b.dashboard_user.id}`, { role: 'viewer' })).status).toBe(404);
      expect((await owner.request('DELETE', `/api/team/users/${b.dashboard_user.id}`)).status).toBe(404);
      expect((await owner.request('DELETE', '/api/team/users/not-an-id')).status).toBe(404);
      expect((await signedIn(b.dashboard_user.email, b.dashboard_user.password)).cookie).not.toBe('');
    });
  });

  describe('audit trail', () => {
    it('given a user who changes their password, then the trail names them and holds no password', async () => {
      const developer = await addUser('developer');
      const browser = await signedIn(developer.email, developer.password);
      const newPassword = `changed-${randomUUID()}`;
      expect((await browser.changePassword(developer.password, newPassword)).status).toBe(200);
      const entries = await auditOf(owner, '&action=auth.password_changed');
      expect(entries.filter((entry) => entry.actor_id === developer.id)).toEqual([
        expect.objectContaining({ action: 'auth.password_changed', actor_email: developer.email, actor_role: 'developer', target_id: developer.id, outcome: 'success' }),
      ]);
      expect(JSON.stringify(entries)).not.toContain(newPassword);
      expect(JSON.stringify(entries)).not.toContain(developer.password);
    });

    it('given actions by the owner and an administrator, then the merchant’s audit list shows each with who did it, newest first, filtered and paged; other merchants see none', async () => {
      const administrator = await addUser('administrator');
      const admin = await signedIn(administrator.email, administrator.password);
      const session = await gateway.createSession(a);
      const simulated = await owner.post<{ transaction: PaymentView }>('/api/sandbox/simulate', { session_id: session.id, outcome: 'confirmed' });
      const refund = await admin.post<{ id: string }>(`/api/payments/${simulated.body.transaction.id}/refund`, { reason: 'customer asked' });
      expect(refund.status).toBe(201);
      const key = await owner.post<{ id: string }>('/api/developers/keys', { type: 'publishable' });
      expect((await owner.post(`/api/developers/keys/${key.body.id}/revoke`)).status).toBe(200);

      const entries = await auditOf(admin);
      const find = (action: string, target: string) => entries.find((entry) => entry.action === action && entry.target_id === target);
      expect(find('payment.simulated', simulated.body.transaction.id)).toMatchObject({ actor_id: a.dashboard_user.id, livemode: false, detail: 'CONFIRMED' });
      expect(find('refund.requested', refund.body.id)).toEqual({
        id: expect.stringMatching(/^aud_/),
        actor_id: administrator.id,
        actor_email: administrator.email,
        actor_role: 'administrator',
        merchant_id: a.merchant_id,
        livemode: false,
        action: 'refund.requested',
        target_id: refund.body.id,
        outcome: 'success',
        detail: 'customer asked',
        request_id: expect.any(String),
        address: expect.stringMatching(/127\.0\.0\.1/),
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      expect(find('api_key.created', key.body.id)).toMatchObject({
        actor_id: a.dashboard_user.id,
        actor_role: 'owner',
        detail: expect.stringMatching(/^publishable pp_\S+; scopes: .+; rate_limit_per_second: .+; expires_at: never$/),
      });
      expect(find('api_key.revoked', key.body.id)).toMatchObject({ actor_id: a.dashboard_user.id, detail: find('api_key.created', key.body.id)?.detail });
      expect(find('team.user_added', administrator.id)).toMatchObject({ actor_id: a.dashboard_user.id, detail: `${administrator.email} (administrator)` });
      expect(find('auth.sign_in', administrator.id)).toMatchObject({ outcome: 'success', actor_email: administrator.email });
      expect(entries.map((entry) => entry.at)).toEqual([...entries.map((entry) => entry.at)].sort().reverse());

      const keys = await auditOf(owner, '&action=api_key.revoked');
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.every((entry) => entry.action === 'api_key.revoked')).toBe(true);
      const first = await owner.get<ListPage<AuditEntryView>>('/api/audit?limit=2');
      const second = await owner.get<ListPage<AuditEntryView>>(`/api/audit?limit=2&starting_after=${first.body.data[1].id}`);
      expect(first.body.has_more).toBe(true);
      expect(second.body.data.map((entry) => entry.id)).toEqual(entries.slice(2, 4).map((entry) => entry.id));
      expect((await owner.get('/api/audit?action=everything')).status).toBe(400);

      const otherOwner = await signedIn(b.dashboard_user.email, b.dashboard_user.password);
      const other = await auditOf(otherOwner);
      expect(other.length).toBeGreaterThan(0);
      expect(other.every((entry) => entry.merchant_id === b.merchant_id)).toBe(true);
      // Another merchant's entry id as a cursor reads as unknown: an empty page, not B's entries older than it.
      await signedIn(a.dashboard_user.email, a.dashboard_user.password);
      const [newestOfA] = await auditOf(owner);
      expect(newestOfA.merchant_id).toBe(a.merchant_id);
      const probing = await otherOwner.get<ListPage<AuditEntryView>>(`/api/audit?starting_after=${newestOfA.id}`);
      expect(probing.status).toBe(200);
      expect(probing.body.data).toEqual([]);
      const developer = await addUser('developer');
      expect((await (await signedIn(developer.email, developer.password)).get('/api/audit')).status).toBe(403);
    });

    it('given a failed sign-in, then it is recorded with the e-mail tried and never the password, nor a password typed as the e-mail; platform admins see every merchant’s entries and filter by merchant', async () => {
      const password = `wrong-${randomUUID()}`;
      expect((await new DashboardBrowser(url).login(a.dashboard_user.email, password)).status).toBe(401);
      // A password typed into the e-mail field, from an address outside the per-address tests' range so its entry is found by address.
      const typedAsEmail = `Hunter2-${randomUUID()}`;
      const mistypedFrom = '127.0.0.254';
      expect((await loginFrom(url, mistypedFrom, typedAsEmail, typedAsEmail)).status).toBe(401);
      const created = await gateway.call<{ email: string; password: string }>('/v1/admin/platform_admins', stack.env.ADMIN_TOKEN!, { email: `ops-${randomUUID().slice(0, 8)}@example.com` });
      const ops = await signedIn(created.body.email, created.body.password);
      const all = await ops.get<ListPage<AuditEntryView>>('/api/admin/audit?action=auth.sign_in&limit=100');
      const failed = all.body.data.find((entry) => entry.outcome === 'failure' && entry.actor_email === a.dashboard_user.email);
      expect(failed).toMatchObject({ actor_id: null, actor_role: null, merchant_id: null, target_id: null });
      expect(JSON.stringify(all.body)).not.toContain(password);
      const mistyped = all.body.data.find((entry) => entry.outcome === 'failure' && entry.address.endsWith(mistypedFrom));
      expect(mistyped).toMatchObject({ actor_id: null, actor_email: '(not an e-mail address)' });
      expect(JSON.stringify(all.body)).not.toContain(typedAsEmail);
      expect(all.body.data.some((entry) => entry.merchant_id === b.merchant_id) && all.body.data.some((entry) => entry.merchant_id === a.merchant_id)).toBe(true);
      const onlyB = await ops.get<ListPage<AuditEntryView>>(`/api/admin/audit?merchant_id=${b.merchant_id}&limit=100`);
      expect(onlyB.body.data.length).toBeGreaterThan(0);
      expect(onlyB.body.data.every((entry) => entry.merchant_id === b.merchant_id)).toBe(true);
      expect((await owner.get('/api/admin/audit')).status).toBe(403);
    });

    it('given an operator’s action on the merchant, then its owner sees it done by the platform, without the operator’s e-mail, id or address; platform admins see who', async () => {
      const [created] = await auditOf(owner, '&action=merchant.created');
      expect(created).toMatchObject({ merchant_id: a.merchant_id, target_id: a.merchant_id, actor_role: 'platform_admin', actor_id: null, actor_email: 'Platform operator', address: '' });
      expect(created.request_id).not.toBe('');
      const operator = await gateway.call<{ email: string; password: string }>('/v1/admin/platform_admins', stack.env.ADMIN_TOKEN!, { email: `ops-${randomUUID().slice(0, 8)}@example.com` });
      const ops = await signedIn(operator.body.email, operator.body.password);
      const seen = await ops.get<ListPage<AuditEntryView>>(`/api/admin/audit?merchant_id=${a.merchant_id}&action=merchant.created`);
      expect(seen.body.data).toEqual([expect.objectContaining({ id: created.id, actor_email: 'ADMIN_TOKEN', actor_id: expect.stringMatching(/^admin-token:/), address: expect.stringMatching(/127\.0\.0\.1/) })]);
    });

    it('given a stored entry, then the database refuses to change or delete it (append-only)', async () => {
      const sql = await stack.sql();
      await expect(sql.query(`UPDATE gateway.audit_entries SET actor_email = 'someone@else.example'`)).rejects.toThrow(/append-only/);
      await expect(sql.query(`DELETE FROM gateway.audit_entries`)).rejects.toThrow(/append-only/);
    });
  });

  describe('per-address sign-in limit', () => {
    it('given many different e-mails from one address, then past the limit known and unknown e-mails alike get the same 429, even with the right password', async () => {
      const address = `127.0.0.${2 + Math.floor(Math.random() * 250)}`;
      for (let attempt = 0; attempt < PER_ADDRESS; attempt += 1) {
        const answer = await loginFrom(url, address, `nobody-${attempt}-${randomUUID().slice(0, 6)}@example.com`, 'whatever-password');
        expect(answer).toEqual({ status: 401, body: { error: 'Invalid email or password' } });
      }
      const unknown = await loginFrom(url, address, `another-${randomUUID().slice(0, 6)}@example.com`, 'whatever-password');
      const known = await loginFrom(url, address, b.dashboard_user.email, b.dashboard_user.password);
      expect(unknown).toEqual({ status: 429, body: { error: 'Too many sign-in attempts; try again later' } });
      expect(known).toEqual(unknown);
      // Another address is not held back by this one's attempts.
      expect((await new DashboardBrowser(url).login(b.dashboard_user.email, b.dashboard_user.password)).status).toBe(200);
    });

    it('given clients behind a trusted proxy (loopback here), then each client address has its own budget, not the proxy’s', async () => {
      const proxy = `127.0.0.${2 + Math.floor(Math.random() * 250)}`;
      const client = `203.0.113.${1 + Math.floor(Math.random() * 250)}`;
      for (let attempt = 0; attempt < PER_ADDRESS; attempt += 1) {
        expect((await loginFrom(url, proxy, `nobody-${attempt}-${randomUUID().slice(0, 6)}@example.com`, 'whatever-password', client)).status).toBe(401);
      }
      expect((await loginFrom(url, proxy, `another-${randomUUID().slice(0, 6)}@example.com`, 'whatever-password', client)).status).toBe(429);
      // The same proxy, another client: not held back, so the right password signs in.
      expect((await loginFrom(url, proxy, b.dashboard_user.email, b.dashboard_user.password, '198.51.100.9')).status).toBe(200);
    });
  });

  // This stack runs no webhooks service: the payment page and an event's detail must still answer, without the deliveries.
  describe('payment page and event detail while the webhooks service is down', () => {
    it('given no webhooks service, then the payment, its session and its events still show, with deliveries null', async () => {
      const session = await gateway.createSession(a);
      const simulated = await owner.post<{ transaction: PaymentView }>('/api/sandbox/simulate', { session_id: session.id, outcome: 'confirmed' });
      const detail = await owner.get<{ payment: PaymentView; events: Array<{ type: string; deliveries: unknown }> }>(`/api/payments/${simulated.body.transaction.id}`);
      expect(detail.status).toBe(200);
      expect(detail.body.payment.id).toBe(simulated.body.transaction.id);
      // Newest first: the session's completion names the payment that completed it, so it is one of the payment's events.
      expect(detail.body.events.map((event) => [event.type, event.deliveries])).toEqual([
        ['checkout.session.completed', null],
        ['payment.confirmed', null],
      ]);
    });

    it('given no webhooks service, then an event’s detail still shows the event, with deliveries null', async () => {
      const session = await gateway.createSession(a);
      const simulated = await owner.post<{ transaction: PaymentView }>('/api/sandbox/simulate', { session_id: session.id, outcome: 'confirmed' });
      const detail = await owner.get<{ events: Array<{ id: string; type: string }> }>(`/api/payments/${simulated.body.transaction.id}`);
      const confirmed = detail.body.events.find((event) => event.type === 'payment.confirmed')!;
      const event = await owner.get<{ id: string; type: string; deliveries: unknown }>(`/api/events/${confirmed.id}`);
      expect(event.status).toBe(200);
      expect(event.body).toMatchObject({ id: confirmed.id, type: 'payment.confirmed', deliveries: null });
    });
  });
});
