import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { carryRequestIds, JsonLogger } from '@pp/platform';
import { PayerErrorFilter } from './payer-error.filter';
import { securityHeaders } from './security-headers';

/** Request bodies are tiny here (simulate outcome, client secret); anything larger is refused. */
export const BODY_LIMIT_BYTES = 16 * 1024;

export function configureHttp(app: NestFastifyApplication): void {
  carryRequestIds(app.getHttpAdapter().getInstance());
  app.getHttpAdapter().getInstance().addHook('onRequest', securityHeaders);
  app.useGlobalFilters(new PayerErrorFilter(app.get(JsonLogger)));
}
