import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { WEB_ASSETS_PREFIX } from './web-app';

/**
 * Only this app's own files run, style and load (no inline script, no third
 * party, no CDN); nobody may frame the dashboard (clickjacking).
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Once a browser has seen it, it reaches the dashboard's host (and its subdomains) over HTTPS only, for a year. */
export const DASHBOARD_HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Every header below on every answer. No cache stores an answer (the API's
 * carry keys and payers' details) but a hashed asset file's. Decided on the
 * route that matched, never on the raw URL: the router decodes
 * percent-escapes, so `/%61pi/payments` reaches the API too.
 * Strict-Transport-Security whenever the session cookie is Secure
 * (DASHBOARD_SECURE_COOKIE, on unless plain-http dev and tests turn it off):
 * the dashboard is then served over HTTPS, and a browser that has been there
 * must not be sent to a plain-http copy of it by someone on the network.
 */
export function securityHeaders(options: { secureCookie: boolean }) {
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    if (!request.routeOptions.url?.startsWith(WEB_ASSETS_PREFIX)) reply.header('Cache-Control', 'no-store');
    if (options.secureCookie) reply.header('Strict-Transport-Security', DASHBOARD_HSTS);
    reply
      .header('Content-Security-Policy', DASHBOARD_CSP)
      .header('X-Frame-Options', 'DENY')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'same-origin')
      .header('Cross-Origin-Opener-Policy', 'same-origin')
      .header('Cross-Origin-Resource-Policy', 'same-origin')
      .header('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
    done();
  };
}
