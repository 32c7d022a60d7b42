import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { carryRequestIds, JsonErrorFilter, JsonLogger } from '@pp/platform';
import { securityHeaders } from './security-headers';
import { serveWebAssets } from './web-app';

/** Every answer carries X-Request-Id and the security headers; every error is `{ "error": string }`. */
export async function configureHttp(app: NestFastifyApplication): Promise<void> {
  carryRequestIds(app.getHttpAdapter().getInstance());
  app.getHttpAdapter().getInstance().addHook('onRequest', securityHeaders);
  app.useGlobalFilters(new JsonErrorFilter(app.get(JsonLogger)));
  await serveWebAssets(app);
}
