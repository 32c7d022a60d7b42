import Fastify from 'fastify';
import { html } from '../pages/html';
import { CHECKOUT_HSTS, contentSecurityPolicy, originAllowed, parseOrigin, securityHeaders } from './security-headers';
import { sendPage } from './send';

/** A bare app with the checkout's header hook, as configureHttp adds it for the given public base. */
async function headersServedAt(checkoutUrlBase: string): Promise<Record<string, unknown>> {
  const app = Fastify();
  app.addHook('onRequest', securityHeaders({ CHECKOUT_URL_BASE: checkoutUrlBase }));
  app.get('/sessions/:id', async () => 'page');
  try {
    return (await app.inject({ method: 'GET', url: '/sessions/cs_1' })).headers;
  } finally {
    await app.close();
  }
}

describe('payer page security headers', () => {
  it('allow only own scripts, no inline code, and no framing by default', () => {
    const csp = contentSecurityPolicy();
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(contentSecurityPolicy('https://shop.example.com')).toContain('frame-ancestors https://shop.example.com');
  });

  it('given an https public base, then every answer tells the browser to come back over HTTPS only, as the dashboard does', async () => {
    const headers = await headersServedAt('https://pay.example.com/');
    expect(headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(CHECKOUT_HSTS).toBe('max-age=31536000; includeSubDomains');
    expect(headers['content-security-policy']).toBe(contentSecurityPolicy());
  });

  it('given a plain-http public base (local dev, tests), then no HSTS, which would pin localhost to https', async () => {
    const headers = await headersServedAt('http://localhost:3001');
    expect(headers['strict-transport-security']).toBeUndefined();
    expect(headers['content-security-policy']).toBe(contentSecurityPolicy());
  });

  it('refuse framing to browsers that know no frame-ancestors too (X-Frame-Options), unless the page may be framed', async () => {
    expect((await headersServedAt('https://pay.example.com/'))['x-frame-options']).toBe('DENY');
    const app = Fastify();
    app.addHook('onRequest', securityHeaders({ CHECKOUT_URL_BASE: 'https://pay.example.com/' }));
    app.get('/embed/sessions/:id', (_request, reply) => sendPage(reply, 200, html`<p>frame</p>`, 'https://shop.example.com'));
    try {
      const framed = (await app.inject({ method: 'GET', url: '/embed/sessions/cs_1' })).headers;
      expect(framed['x-frame-options']).toBeUndefined();
      expect(framed['content-security-policy']).toBe(contentSecurityPolicy('https://shop.example.com'));
    } finally {
      await app.close();
    }
  });

  it.each([
    ['https://shop.example.com', 'https://shop.example.com'],
    ['http://localhost:4100', 'http://localhost:4100'],
    ['https://shop.example.com/', null],
    ['https://shop.example.com; script-src *', null],
    ['https://a;b.example', null],
    ['https://a,b.example', null],
    ['https://*.shop.example', null],
    ['http://[::1]:3000', 'http://[::1]:3000'],
    ['https://xn--bcher-kva.example', 'https://xn--bcher-kva.example'],
    ['https://shop_eu.example.com', 'https://shop_eu.example.com'],
    ['javascript:alert(1)', null],
    ['null', null],
    [42, null],
  ])('parseOrigin(%p) → %p', (value, expected) => {
    expect(parseOrigin(value)).toBe(expected);
  });

  it('match a merchant’s frame_ancestors exactly or by subdomain wildcard; an empty list admits any site', () => {
    expect(originAllowed('https://a.example.com', [])).toBe(true);
    expect(originAllowed('https://shop.example.com', ['https://shop.example.com'])).toBe(true);
    expect(originAllowed('https://evil.com', ['https://shop.example.com'])).toBe(false);
    expect(originAllowed('https://a.example.com', ['https://*.example.com'])).toBe(true);
    expect(originAllowed('http://a.example.com', ['https://*.example.com'])).toBe(false);
    expect(originAllowed('https://example.com.evil.com', ['https://*.example.com'])).toBe(false);
  });

  it('given an entry naming the default port, then it matches the origin the browser names without it; another port does not', () => {
    expect(originAllowed('https://shop.example.com', ['https://shop.example.com:443'])).toBe(true);
    expect(originAllowed('https://a.example.com', ['https://*.example.com:443'])).toBe(true);
    expect(originAllowed('http://localhost', ['http://localhost:80'])).toBe(true);
    expect(originAllowed('https://shop.example.com', ['https://shop.example.com:8443'])).toBe(false);
    expect(originAllowed('https://shop.example.com:8443', ['https://shop.example.com:8443'])).toBe(true);
    expect(originAllowed('http://shop.example.com', ['https://shop.example.com:80'])).toBe(false);
  });
});
