import { request as httpRequest } from 'node:http';
import { TestStack } from '@pp/testing';
import { DashboardBrowser, GatewayApi } from '../testing/dashboard-client';

/*
 * The dashboard's security headers over the real app: no cache keeps an
 * answer but a hashed asset file's, however the path of an API call is
 * spelled (the router decodes percent-escapes: /%61pi/ is /api/); HSTS
 * whenever the session cookie is Secure (DASHBOARD_SECURE_COOKIE), and
 * then state-changing requests only from an https page or a loopback name.
 */

describe('dashboard security headers', () => {
  let stack: TestStack;
  let owner: DashboardBrowser;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway', 'dashboard'], label: 'dashboard-headers', env: { DASHBOARD_SECURE_COOKIE: 'false' } });
    const merchant = await new GatewayApi(stack).createMerchant('Headers');
    owner = new DashboardBrowser(stack.url('dashboard'));
    expect((await owner.login(merchant.dashboard_user.email, merchant.dashboard_user.password)).status).toBe(200);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  // Error answers are never stored whatever the route (the error filter says so): these calls succeed.
  it.each(['/api/developers/keys', '/%61pi/developers/keys', '/%61%70%69/developers/%6Beys'])(
    'given the API answering a signed-in user at %s, then the answer (the merchant’s keys) is never stored',
    async (path) => {
      const answer = await owner.get<{ keys: unknown[] }>(path);
      expect(answer.status).toBe(200);
      expect(answer.body.keys.length).toBeGreaterThan(0);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('x-frame-options')).toBe('DENY');
    },
  );

  it('given a page or a hashed asset, then only the asset may be cached', async () => {
    const page = await fetch(`${stack.url('dashboard')}/payments`);
    expect(page.headers.get('cache-control')).toBe('no-store');

    const [asset] = (await page.text()).match(/\/assets\/[\w.-]+\.js/) ?? [];
    const assetAnswer = await fetch(`${stack.url('dashboard')}${asset}`);
    expect(assetAnswer.status).toBe(200);
    expect(assetAnswer.headers.get('cache-control')).toMatch(/immutable/);
    expect(assetAnswer.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('given a plain-http dashboard (DASHBOARD_SECURE_COOKIE=false, dev and tests), then no answer asks for HTTPS', async () => {
    expect((await fetch(`${stack.url('dashboard')}/payments`)).headers.get('strict-transport-security')).toBeNull();
    expect((await owner.get('/api/developers/keys')).headers.get('strict-transport-security')).toBeNull();
  });
});

describe('dashboard security headers with a Secure session cookie (the default)', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['dashboard'], label: 'dashboard-hsts' });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it.each(['/payments', '/api/auth/session', '/%61pi/auth/session', '/no-such-page'])('given %s, then the answer carries Strict-Transport-Security for a year and every subdomain', async (path) => {
    const answer = await fetch(`${stack.url('dashboard')}${path}`);
    expect(answer.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });

  it('given a hashed asset, then it carries Strict-Transport-Security too', async () => {
    const [asset] = (await (await fetch(`${stack.url('dashboard')}/payments`)).text()).match(/\/assets\/[\w.-]+\.js/) ?? [];
    const answer = await fetch(`${stack.url('dashboard')}${asset}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });

  /** A POST as a browser sends it, Host and Origin included (fetch may not set Host). */
  const signOut = (host: string, origin: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const { port } = new URL(stack.url('dashboard'));
      const sent = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/api/auth/logout', headers: { host, origin } }, (answer) => {
        let body = '';
        answer.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => resolve({ status: answer.statusCode ?? 0, body }));
      });
      sent.on('error', reject).end();
    });

  it('given a plain-http page under another host name (DNS rebinding), when it posts, then it is refused as cross-site', async () => {
    const answer = await signOut('rebound.example:3002', 'http://rebound.example:3002');
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('Cross-site request refused');
  });

  it('given an https page of the same host, or a loopback one, when it posts, then the Origin check lets it through', async () => {
    expect((await signOut('pay.example.com', 'https://pay.example.com')).status).toBe(401);
    expect((await signOut('localhost:3002', 'http://localhost:3002')).status).toBe(401);
  });
});
