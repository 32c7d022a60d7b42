import { contentSecurityPolicy, originAllowed, parseOrigin } from './security-headers';

describe('payer page security headers', () => {
  it('allow only own scripts, no inline code, and no framing by default', () => {
    const csp = contentSecurityPolicy();
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(contentSecurityPolicy('https://shop.example.com')).toContain('frame-ancestors https://shop.example.com');
  });

  it.each([
    ['https://shop.example.com', 'https://shop.example.com'],
    ['http://localhost:4100', 'http://localhost:4100'],
    ['https://shop.example.com/', null],
    ['https://shop.example.com; script-src *', null],
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
});
