import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { echoRequestId, JsonErrorFilter, JsonLogger } from '@pp/platform';

/** Every answer carries X-Request-Id; every error is `{ "error": string }`. */
export function configureHttp(app: NestFastifyApplication): void {
  app.getHttpAdapter().getInstance().addHook('onRequest', echoRequestId);
  app.useGlobalFilters(new JsonErrorFilter(app.get(JsonLogger)));
}
