import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { carryRequestIds, JsonLogger, useJsonBodyParser } from '@pp/platform';
import type { CheckoutConfig } from '../checkout.config';
import { PayerErrorFilter } from './payer-error.filter';
import { securityHeaders } from './security-headers';

/** Request bodies are tiny here (the embedded frame's client secret); anything larger is refused. */
export const BODY_LIMIT_BYTES = 16 * 1024;

/**
 * Every answer carries the security headers (HSTS when served over https).
 * Bodies are JSON, read by the edge's one parser (a NUL, half a surrogate pair or a prototype key is a 400), as at the gateway.
 */
export async function configureHttp(app: NestFastifyApplication, config: CheckoutConfig): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  carryRequestIds(fastify);
  fastify.addHook('onRequest', securityHeaders(config));
  app.useGlobalFilters(new PayerErrorFilter(app.get(JsonLogger)));
  await app.init(); // registers the routes, and Nest's own body parsers, which are replaced next
  useJsonBodyParser(fastify, BODY_LIMIT_BYTES);
}
