import { randomUUID } from 'node:crypto';
import type { AuditEntryView, ListPage, MerchantEventDetailView, MerchantEventView, PaymentView, QuarantinedEmailView, WebhookEndpointDeliveryView, WebhookEndpointView } from '@pp/contracts';
import { clearOfUtcMidnight, startTogether, testDkimKey, TestStack, waitFor, WebhookReceiver, writeDnsOverrides } from '@pp/testing';
import { DashboardBrowser, GatewayApi, type ProvisionedMerchant } from './testing/dashboard-client';
import { SESSION_PAYMENTS_SHOWN } from './merchant/merchant.controller';

/*
 * The /api routes of Home, the session detail, the payment timeline's
 * deliveries, endpoint disable/enable, the preview checkout and the ingest
 * quarantine (docs/ARCHITECTURE.md "Dashboard"), over real services: roles
 * refused by the server, another merchant's ids answering 404.
 */

interface HomeView {
  summary: { as_of: string; today: { status: string; count: number; volume: number }[]; this_week: { status: string; count: number; volume: number }[]; daily: { day: string; count: number; volume: number }[] };
  latest: PaymentView[];
}
interface PreviewView {
  outcome: 'created' | 'extended';
  checkout_url: string;
  session: Record<string, unknown> & { id: string; expires_at: string; status: string; success_url: string; cancel_url: string; livemode: boolean };
}

describe('dashboard /api: home, sessions, endpoints, preview and quarantine', () => {
  let stack: TestStack;
  let gateway: GatewayApi;
  let receiver: WebhookReceiver;
  let a: ProvisionedMerchant;
  let b: ProvisionedMerchant;
  let owner: DashboardBrowser;
  let other: DashboardBrowser;
  let viewer: DashboardBrowser;

  beforeAll(async () => {
    [stack, receiver] = await startTogether([
      TestStack.start({
        services: ['gateway', 'sessions', 'ledger', 'webhooks', 'ingest', 'dashboard'],
        label: 'dashboard-pages',
        env: { DASHBOARD_SECURE_COOKIE: 'false', DASHBOARD_LOGINS_PER_ADDRESS: '1000', RATE_LIMIT_TEST_PER_SECOND: '5000', INGEST_DNS_OVERRIDES: writeDnsOverrides(testDkimKey()) },
      }),
      WebhookReceiver.start(),
    ]);
    gateway = new GatewayApi(stack);
    [a, b] = await Promise.all([gateway.createMerchant('A'), gateway.createMerchant('B')]);
    [owner, other, viewer] = await Promise.all([signedIn(a.dashboard_user.email), signedIn(b.dashboard_user.email, b), addUser(a, 'viewer')]);
  });
  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  async function signedIn(email: string, merchant = a): Promise<DashboardBrowser> {
    const browser = new DashboardBrowser(stack.url('dashboard'));
    expect((await browser.login(email, merchant.dashboard_user.password)).status).toBe(200);
    return browser;
  }

  /** A user of another role with the owner's password (its hash copied), signed in. */
  async function addUser(merchant: ProvisionedMerchant, role: string): Promise<DashboardBrowser> {
    const email = `${role}-${randomUUID().slice(0, 8)}@example.com`;
    await (await stack.sql()).query(
      `INSERT INTO gateway.dashboard_users (id, merchant_id, email, password_hash, role)
       SELECT $1, merchant_id, $2, password_hash, $3 FROM gateway.dashboard_users WHERE id = $4`,
      [`usr_${role}${randomUUID().replace(/-/g, '').slice(0, 12)}`, email, role, merchant.dashboard_user.id],
    );
    return signedIn(email, merchant);
  }

  async function simulated(sessionId?: string): Promise<PaymentView> {
    const id = sessionId ?? (await gateway.createSession(a)).id;
    const result = await owner.post<{ transaction: PaymentView }>('/api/sandbox/simulate', { session_id: id, outcome: 'confirmed' });
    expect(result.status).toBe(200);
    return result.body.transaction;
  }

  const paymentEvent = (payment: PaymentView) =>
    waitFor('the payment.confirmed event', async () => (await owner.get<ListPage<MerchantEventView>>('/api/events?type=payment.confirmed')).body.data.find((event) => event.data.payment_id === payment.id));

  it('Home: counts and volume by status for today and this week, 14 UTC days of gross volume, the latest payments; per mode', async () => {
    await clearOfUtcMidnight();
    const fresh = await gateway.createMerchant('Fresh');
    const browser = await signedIn(fresh.dashboard_user.email, fresh);
    const empty = await browser.get<HomeView>('/api/home');
    expect(empty.status).toBe(200);
    expect(empty.body.summary.today).toEqual([]);
    expect(empty.body.summary.daily).toHaveLength(14);
    const session = await gateway.createSession(fresh);
    expect((await browser.post('/api/sandbox/simulate', { session_id: session.id, outcome: 'confirmed' })).status).toBe(200);
    const failedSession = await gateway.createSession(fresh);
    expect((await browser.post('/api/sandbox/simulate', { session_id: failedSession.id, outcome: 'failed' })).status).toBe(200);

    const home = (await browser.get<HomeView>('/api/home')).body;
    const today = new Date(home.summary.as_of).toISOString().slice(0, 10);
    expect(home.summary.today).toEqual(expect.arrayContaining([{ status: 'CONFIRMED', count: 1, volume: 2500 }, { status: 'FAILED', count: 1, volume: 2500 }]));
    expect(home.summary.this_week).toEqual(expect.arrayContaining([{ status: 'CONFIRMED', count: 1, volume: 2500 }]));
    expect(home.summary.daily.at(-1)).toEqual({ day: today, count: 1, volume: 2500 }); // FAILED brought no money in
    expect(home.summary.daily.slice(0, -1).every((day) => day.volume === 0)).toBe(true);
    expect(home.latest.map((payment) => payment.status)).toEqual(['FAILED', 'CONFIRMED']);
    expect((await browser.get<HomeView>('/api/home?days=7')).body.summary.daily).toHaveLength(7);
    expect((await browser.get('/api/home?days=9')).status).toBe(400);
    expect((await browser.get<HomeView>('/api/home?mode=live')).body).toMatchObject({ summary: { today: [], this_week: [] }, latest: [] });
    expect((await other.get<HomeView>('/api/home')).body.latest.map((payment) => payment.id)).not.toContain(home.latest[0].id);
  });

  it('session detail: every field and the payment made on it, no client secret; 404 for another merchant, another mode or a bad id', async () => {
    const session = await gateway.createSession(a, { metadata: { order: '42' } });
    const pending = await viewer.get<{ session: Record<string, unknown>; payments: PaymentView[]; payments_has_more: boolean }>(`/api/checkout-sessions/${session.id}`);
    expect(pending.status).toBe(200);
    expect(pending.body.payments_has_more).toBe(false);
    expect(pending.body.session).toMatchObject({ id: session.id, status: 'PENDING', memo: session.memo, amount: 2500, success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/cancel', metadata: { order: '42' } });
    expect(pending.body.session).not.toHaveProperty('client_secret');
    expect(pending.body.payments).toEqual([]);

    const payment = await simulated(session.id);
    const completed = (await owner.get<{ session: { status: string }; payments: PaymentView[] }>(`/api/checkout-sessions/${session.id}`)).body;
    expect(completed.session.status).toBe('COMPLETED');
    expect(completed.payments.map((row) => [row.id, row.status])).toEqual([[payment.id, 'CONFIRMED']]);
    expect((await other.get(`/api/checkout-sessions/${session.id}`)).status).toBe(404);
    expect((await owner.get(`/api/checkout-sessions/${session.id}?mode=live`)).status).toBe(404);
    expect((await owner.get('/api/checkout-sessions/not%20an%20id')).status).toBe(404);
  });

  it('session detail: a session with more payments than it shows (failed simulations leave it open) says so', async () => {
    const session = await gateway.createSession(a);
    for (let attempt = 0; attempt <= SESSION_PAYMENTS_SHOWN; attempt++) {
      expect((await owner.post('/api/sandbox/simulate', { session_id: session.id, outcome: 'failed' })).status).toBe(200);
    }
    const detail = (await owner.get<{ payments: PaymentView[]; payments_has_more: boolean }>(`/api/checkout-sessions/${session.id}`)).body;
    expect(detail.payments).toHaveLength(SESSION_PAYMENTS_SHOWN);
    expect(detail.payments_has_more).toBe(true);
  });

  it('endpoints: a disabled endpoint gets no delivery, re-enabled it gets the next events but not the skipped one; the timeline and the endpoint list the deliveries', async () => {
    const control = await owner.post<WebhookEndpointView & { secret: string }>('/api/developers/webhook-endpoints', { url: receiver.url('/control') });
    // A token in the endpoint's URL, as some receivers take one: the audit trail must keep only the origin.
    const urlToken = `tok-${randomUUID()}`;
    const endpoint = await owner.post<WebhookEndpointView & { secret: string }>('/api/developers/webhook-endpoints', { url: `${receiver.url('/paused')}?token=${urlToken}` });
    receiver.trust('/control', control.body.secret);
    receiver.trust('/paused', endpoint.body.secret);

    expect((await viewer.post(`/api/developers/webhook-endpoints/${endpoint.body.id}/disable`)).status).toBe(403);
    expect((await other.post(`/api/developers/webhook-endpoints/${endpoint.body.id}/disable`)).status).toBe(404);
    expect((await owner.post(`/api/developers/webhook-endpoints/${endpoint.body.id}/disable?mode=live`)).status).toBe(404);
    const disabled = await owner.post<WebhookEndpointView>(`/api/developers/webhook-endpoints/${endpoint.body.id}/disable`);
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ id: endpoint.body.id, status: 'disabled', disabled_reason: 'disabled by the merchant' });

    const skipped = await paymentEvent(await simulated());
    await waitFor('the control endpoint to receive the event', async () => receiver.received('/control').some((hook) => hook.eventId === skipped.id));
    const skippedDetail = (await owner.get<MerchantEventDetailView>(`/api/events/${skipped.id}`)).body;
    expect(skippedDetail.deliveries.map((delivery) => delivery.webhook_id)).toEqual([control.body.id]);
    expect(receiver.received('/paused')).toEqual([]);

    const enabled = await owner.post<WebhookEndpointView>(`/api/developers/webhook-endpoints/${endpoint.body.id}/enable`);
    expect(enabled.body).toMatchObject({ status: 'enabled', disabled_reason: null });
    const payment = await simulated();
    const delivered = await paymentEvent(payment);
    await waitFor('the re-enabled endpoint to receive the next event', async () => receiver.received('/paused').some((hook) => hook.eventId === delivered.id));
    expect(receiver.received('/paused').map((hook) => hook.eventId)).not.toContain(skipped.id);

    const recent = await waitFor('the endpoint’s delivery marked SUCCESS', async () => {
      const page = await viewer.get<{ deliveries: WebhookEndpointDeliveryView[] }>(`/api/developers/webhook-endpoints/${endpoint.body.id}/deliveries`);
      return page.body.deliveries.find((delivery) => delivery.event_id === delivered.id && delivery.delivery_status === 'SUCCESS');
    });
    expect(recent).toMatchObject({ event_type: 'payment.confirmed', webhook_id: endpoint.body.id, http_status: 200 });
    expect((await other.get(`/api/developers/webhook-endpoints/${endpoint.body.id}/deliveries`)).status).toBe(404);

    const timeline = (await owner.get<{ events: MerchantEventDetailView[] }>(`/api/payments/${payment.id}`)).body.events;
    const confirmed = timeline.find((event) => event.type === 'payment.confirmed')!;
    expect(confirmed.deliveries.map((delivery) => delivery.webhook_id).sort()).toEqual([control.body.id, endpoint.body.id].sort());

    // Both changes are in the audit trail, with who made them.
    const audit = (await owner.get<ListPage<AuditEntryView>>('/api/audit?limit=100')).body.data.filter((entry) => entry.target_id === endpoint.body.id);
    expect(audit.map((entry) => [entry.action, entry.actor_role, entry.outcome])).toEqual([
      ['webhook_endpoint.enabled', 'owner', 'success'],
      ['webhook_endpoint.disabled', 'owner', 'success'],
      ['webhook_endpoint.created', 'owner', 'success'],
    ]);
    expect(audit.find((entry) => entry.action === 'webhook_endpoint.created')?.detail).toBe(new URL(receiver.url('/paused')).origin);
    expect(JSON.stringify(audit)).not.toContain(urlToken);
  });

  it('preview checkout: one stable test session whose deadline moves ahead on each opening, a new one once it completed; never for a viewer', async () => {
    const base = stack.url('dashboard');
    const first = await owner.post<PreviewView>('/api/developers/preview-checkout');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ outcome: 'created', session: { status: 'PENDING', livemode: false, success_url: `${base}/developers`, cancel_url: `${base}/developers` } });
    expect(first.body.checkout_url).toMatch(new RegExp(`/sessions/${first.body.session.id}$`));
    expect(first.body.session).not.toHaveProperty('client_secret');

    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await owner.post<PreviewView>('/api/developers/preview-checkout?mode=live');
    expect(second.body).toMatchObject({ outcome: 'extended', session: { id: first.body.session.id, livemode: false } });
    expect(Date.parse(second.body.session.expires_at)).toBeGreaterThan(Date.parse(first.body.session.expires_at));
    expect((await owner.get<{ session: { expires_at: string } }>(`/api/checkout-sessions/${first.body.session.id}`)).body.session.expires_at).toBe(second.body.session.expires_at);
    const stream = await (await stack.bus(10_000)).request('ledger.stream.read.v1', { stream_id: `checkout_session-${first.body.session.id}` });
    expect(stream.events.map((event) => event.type)).toEqual(['session.created', 'session.expiry_extended']);

    expect((await viewer.post('/api/developers/preview-checkout')).status).toBe(403);
    const theirs = await other.post<PreviewView>('/api/developers/preview-checkout');
    expect(theirs.body.session.id).not.toBe(first.body.session.id);

    await simulated(first.body.session.id);
    const third = await owner.post<PreviewView>('/api/developers/preview-checkout');
    expect(third.body).toMatchObject({ outcome: 'created', session: { status: 'PENDING' } });
    expect(third.body.session.id).not.toBe(first.body.session.id);
    expect((await owner.post<PreviewView>('/api/developers/preview-checkout')).body.session.id).toBe(third.body.session.id);
  });

  it('ingest quarantine: platform admins list and release; merchant users are refused', async () => {
    const admin = await gateway.call<{ email: string; password: string }>('/v1/admin/platform_admins', stack.env.ADMIN_TOKEN!, { email: `ops-${randomUUID().slice(0, 8)}@example.com` });
    const operator = new DashboardBrowser(stack.url('dashboard'));
    expect((await operator.login(admin.body.email, admin.body.password)).status).toBe(200);
    const address = `till.${randomUUID().slice(0, 8)}@unknown.example`;
    const { id, session } = await gateway.postNoticeTo(b, address);

    const listed = await waitFor('the e-mail in quarantine', async () =>
      (await operator.get<ListPage<QuarantinedEmailView>>('/api/admin/ingest/quarantine')).body.data.find((email) => email.id === id),
    );
    expect(listed).toMatchObject({ status: 'quarantined', recipients: [address], amount_cents: 2500, memo: session.memo, release: null });
    expect((await owner.get('/api/admin/ingest/quarantine')).status).toBe(403);
    expect((await owner.post(`/api/admin/ingest/quarantine/${id}/release`)).status).toBe(403);
    expect((await operator.get('/api/admin/ingest/quarantine?status=nope')).status).toBe(400);

    const early = await operator.post<{ error: string }>(`/api/admin/ingest/quarantine/${id}/release`);
    expect([early.status, early.body.error]).toEqual([409, expect.stringMatching(/register it first/)]);
    expect((await operator.request('PATCH', `/api/admin/merchants/${b.merchant_id}`, { etransfer_email: address })).status).toBe(200);
    const released = await operator.post<{ id: string; merchant_id: string; payment_id: string }>(`/api/admin/ingest/quarantine/${id}/release`);
    expect(released).toMatchObject({ status: 200, body: { id, merchant_id: b.merchant_id, payment_id: expect.stringMatching(/^txn_/) } });
    const trail = await operator.get<ListPage<AuditEntryView>>(`/api/admin/audit?action=quarantine.released&merchant_id=${b.merchant_id}`);
    expect(trail.body.data.find((entry) => entry.target_id === id)).toMatchObject({ merchant_id: b.merchant_id, livemode: true, detail: expect.stringContaining(released.body.payment_id) });
    expect((await operator.get<ListPage<QuarantinedEmailView>>('/api/admin/ingest/quarantine?status=released')).body.data.map((email) => email.id)).toContain(id);
    expect((await operator.post('/api/admin/ingest/quarantine/em_nothinghere0/release')).status).toBe(404);
  });
});
