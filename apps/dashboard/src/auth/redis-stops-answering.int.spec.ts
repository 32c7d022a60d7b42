import { REDIS_COMMAND_TIMEOUT_MS } from '@pp/platform';
import { FreezableRelay, TestStack, testInfra } from '@pp/testing';
import { DashboardBrowser, GatewayApi, type ProvisionedMerchant } from '../testing/dashboard-client';

/*
 * The dashboard against a Redis that stops answering without closing its
 * connections (a paused server, a cut network). Its sessions and sign-in
 * limits live there: each request that needs them is answered 503 with
 * Retry-After at the Redis command deadline, neither held for as long as
 * the connection lives nor failed as an internal error; a signed-in
 * browser is not signed out, and goes on once Redis answers again.
 */
describe('dashboard: Redis stops answering', () => {
  let relay: FreezableRelay;
  let stack: TestStack;
  let merchant: ProvisionedMerchant;
  let browser: DashboardBrowser;

  beforeAll(async () => {
    relay = await FreezableRelay.start(new URL(testInfra.redisUrl));
    stack = await TestStack.start({
      services: ['gateway', 'dashboard'],
      label: 'dashboard-redisfrozen',
      env: { REDIS_URL: relay.url, DASHBOARD_SECURE_COOKIE: 'false' },
    });
    merchant = await new GatewayApi(stack).createMerchant('Frozen');
    browser = new DashboardBrowser(stack.url('dashboard'));
    expect((await browser.login(merchant.dashboard_user.email, merchant.dashboard_user.password)).status).toBe(200);
  });
  afterAll(async () => {
    relay?.thaw();
    await stack?.stop();
    relay?.stop();
  });

  it('given Redis holds back its answers, then the signed-in session and a new sign-in are answered 503 at the command deadline, and once Redis answers the session goes on', async () => {
    relay.freeze();
    const started = Date.now();
    const session = await browser.get<{ error: string }>('/api/auth/session');
    const sessionMs = Date.now() - started;
    const other = new DashboardBrowser(stack.url('dashboard'));
    const signIn = await other.login(merchant.dashboard_user.email, merchant.dashboard_user.password);

    expect(session.status).toBe(503);
    expect(session.body).toEqual({ error: 'Service unavailable' });
    expect(session.headers.get('retry-after')).toBe('1');
    expect(sessionMs).toBeGreaterThanOrEqual(REDIS_COMMAND_TIMEOUT_MS - 50);
    expect(sessionMs).toBeLessThan(REDIS_COMMAND_TIMEOUT_MS * 3);
    expect(signIn.status).toBe(503);
    expect(signIn.headers.get('set-cookie')).toBeNull();

    relay.thaw();
    expect((await browser.get('/api/auth/session')).status).toBe(200);
  });
});
