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

/**
 * Every header below on every answer. No cache stores an answer (the API's
 * carry keys and payers' details) but a hashed asset file's. Decided on the
 * route that matched, never on the raw URL: the router decodes
 * percent-escapes, so `/%61pi/payments` reaches the API too.
 */
export function securityHeaders(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (!request.routeOptions.url?.startsWith(WEB_ASSETS_PREFIX)) reply.header('Cache-Control', 'no-store');
  reply
    .header('Content-Security-Policy', DASHBOARD_CSP)
    .header('X-Frame-Options', 'DENY')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'same-origin')
    .header('Cross-Origin-Opener-Policy', 'same-origin')
    .header('Cross-Origin-Resource-Policy', 'same-origin')
    .header('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  done();
}
