import type { FastifyReply } from 'fastify';
import type { Html } from '../pages/html';
import { contentSecurityPolicy } from './security-headers';

/**
 * Sends a payer page; `frameAncestors` replaces the default (no framing) on the embed routes, and drops the
 * X-Frame-Options DENY that browsers without frame-ancestors would otherwise obey (they cannot name one origin).
 */
export function sendPage(reply: FastifyReply, status: number, page: Html, frameAncestors?: string): FastifyReply {
  if (frameAncestors) reply.header('Content-Security-Policy', contentSecurityPolicy(frameAncestors)).removeHeader('X-Frame-Options');
  return reply.code(status).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(page.value);
}

export function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.code(status).header('Cache-Control', 'no-store').type('application/json; charset=utf-8').send(JSON.stringify(body));
}
