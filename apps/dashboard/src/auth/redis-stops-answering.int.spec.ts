import { REDIS_COMMAND_TIMEOUT_MS } from '@pp/platform';
import { startStackWithFreezableRedis, type StackWithFreezableRedis } from '@pp/testing';
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
  let frozen: StackWithFreezableRedis;
  let merchant: ProvisionedMerchant;
  let browser: DashboardBrowser;

  beforeAll(async () => {
    frozen = await startStackWithFreezableRedis({ services: ['gateway', 'dashboard'], label: 'dashboard-redisfrozen', env: { DASHBOARD_SECURE_COOKIE: 'false' } });
    merchant = await new GatewayApi(frozen.stack).createMerchant('Frozen');
    browser = new DashboardBrowser(frozen.stack.url('dashboard'));
    expect((await browser.login(merchant.dashboard_user.email, merchant.dashboard_user.password)).status).toBe(200);
  });
  afterAll(() => frozen?.stop());

  it('given Redis holds back its answers, then the signed-in session and a new sign-in are answered 503 at the command deadline, and once Redis answers the session goes on', async () => {
    frozen.redis.freeze();
    const started = Date.now();
    const session = await browser.get<{ error: string }>('/api/auth/session');
    const sessionMs = Date.now() - started;
    const other = new DashboardBrowser(frozen.stack.url('dashboard'));
    const signIn = await other.login(merchant.dashboard_user.email, merchant.dashboard_user.password);

    expect(session.status).toBe(503);
    expect(session.body).toEqual({ error: 'Service unavailable' });
    expect(session.headers.get('retry-after')).toBe('1');
    expect(sessionMs).toBeGreaterThanOrEqual(REDIS_COMMAND_TIMEOUT_MS - 50);
    expect(sessionMs).toBeLessThan(REDIS_COMMAND_TIMEOUT_MS * 3);
    expect(signIn.status).toBe(503);
    expect(signIn.headers.get('set-cookie')).toBeNull();

    frozen.redis.thaw();
    expect((await browser.get('/api/auth/session')).status).toBe(200);
  });
});
