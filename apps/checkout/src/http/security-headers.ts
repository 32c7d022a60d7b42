import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { CheckoutConfig } from '../checkout.config';

/**
 * Content-Security-Policy of every payer page: only this app's own scripts,
 * styles, images and fetches (no inline code, no third parties). Framing is
 * refused unless the embed routes allow the one origin they were opened for.
 */
export function contentSecurityPolicy(frameAncestors: string = "'none'"): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}

/** Once a browser has seen it, it reaches the checkout's host (and its subdomains) over HTTPS only, for a year (as the dashboard). */
export const CHECKOUT_HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Headers on every response; routes that may be framed replace the CSP with
 * their own frame-ancestors. Strict-Transport-Security when the public base
 * (CHECKOUT_URL_BASE) is https: a payer's browser that has been here once must
 * not be sent to a plain-http copy, where someone on the network could change
 * the deposit address and memo shown. Plain-http dev and tests get none.
 */
export function securityHeaders(config: Pick<CheckoutConfig, 'CHECKOUT_URL_BASE'>) {
  const httpsOnly = new URL(config.CHECKOUT_URL_BASE).protocol === 'https:';
  return (_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    if (httpsOnly) reply.header('Strict-Transport-Security', CHECKOUT_HSTS);
    reply
      .header('Content-Security-Policy', contentSecurityPolicy())
      // For browsers that know no frame-ancestors; a page that may be framed drops it (sendPage).
      .header('X-Frame-Options', 'DENY')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'no-referrer')
      .header('Cross-Origin-Opener-Policy', 'same-origin-allow-popups')
      .header('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
    done();
  };
}

/**
 * A parent page's origin as given to the frame: exactly scheme://host[:port],
 * nothing that could extend the CSP. The URL parser lets a host hold `;`,
 * `,` and `*` (a directive's or a policy's end, a wildcard), so the host must
 * be a DNS name (punycode for others; underscores, which browsers take, too)
 * or a bracketed IPv6 address.
 */
export function parseOrigin(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 200) return null;
  try {
    const url = new URL(value);
    const plainHost = DNS_HOST.test(url.host) || IPV6_HOST.test(url.host);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value && plainHost ? url.origin : null;
  } catch {
    return null;
  }
}

const withoutDefaultPort = (entry: string): string => entry.replace(/^(https:\/\/[^/]+):443$|^(http:\/\/[^/]+):80$/, (_match, https?: string, http?: string) => https ?? http ?? entry);

const DNS_HOST = /^[a-z0-9._-]+(?::\d+)?$/;
const IPV6_HOST = /^\[[0-9a-f:.]+\](?::\d+)?$/;

/**
 * Whether a merchant's frame_ancestors list (empty: any site) admits an origin; entries may be https://*.example.com.
 * An entry's explicit default port (`https://shop.example.com:443`, which the list accepts) is dropped first, as the
 * browser drops it from the origin it names: kept, the entry would never match.
 */
export function originAllowed(origin: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true;
  const { protocol, host } = new URL(origin);
  return allowed.map(withoutDefaultPort).some((entry) => {
    const wildcard = /^(https?:)\/\/\*\.(.+)$/.exec(entry);
    if (!wildcard) return entry === origin;
    return wildcard[1] === protocol && host.endsWith(`.${wildcard[2]}`);
  });
}
