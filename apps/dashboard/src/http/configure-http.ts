import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { carryRequestIds, JsonErrorFilter, JsonLogger, useJsonBodyParser } from '@pp/platform';
import type { DashboardConfig } from '../dashboard.config';
import { checkQuery } from './query-check';
import { securityHeaders } from './security-headers';
import { serveWebAssets } from './web-app';

/**
 * The largest body the dashboard takes: its forms are a few short fields. Fastify refuses a bigger one with 413
 * (from its Content-Length, before reading it) before the route's guard runs, so an unsigned caller cannot make the
 * server buffer and parse a megabyte per request.
 */
export const BODY_LIMIT_BYTES = 16 * 1024;

/**
 * Every answer carries X-Request-Id and the security headers (HSTS with a
 * Secure cookie); queries and JSON bodies (the only media type taken) are
 * checked at the edge; every error is `{ "error": string }`.
 */
export async function configureHttp(app: NestFastifyApplication, config: DashboardConfig): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  carryRequestIds(fastify);
  fastify.addHook('onRequest', securityHeaders({ secureCookie: config.DASHBOARD_SECURE_COOKIE }));
  fastify.addHook('onRequest', checkQuery);
  app.useGlobalFilters(new JsonErrorFilter(app.get(JsonLogger)));
  await serveWebAssets(app);
  await app.init(); // registers the routes, and Nest's own body parsers, which are replaced next
  useJsonBodyParser(fastify, BODY_LIMIT_BYTES);
}
