import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { carryRequestIds, JsonErrorFilter, JsonLogger } from '@pp/platform';
import type { DashboardConfig } from '../dashboard.config';
import { securityHeaders } from './security-headers';
import { serveWebAssets } from './web-app';

/** Every answer carries X-Request-Id and the security headers (HSTS with a Secure cookie); every error is `{ "error": string }`. */
export async function configureHttp(app: NestFastifyApplication, config: DashboardConfig): Promise<void> {
  carryRequestIds(app.getHttpAdapter().getInstance());
  app.getHttpAdapter().getInstance().addHook('onRequest', securityHeaders({ secureCookie: config.DASHBOARD_SECURE_COOKIE }));
  app.useGlobalFilters(new JsonErrorFilter(app.get(JsonLogger)));
  await serveWebAssets(app);
}
