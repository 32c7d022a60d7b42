import type { ClientRequest, IncomingMessage } from 'node:http';
import type { Span } from '@opentelemetry/api';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { commandOnlyStatement } from './redis-statement';

/**
 * An outgoing request's span names its origin only: a webhook endpoint's
 * path and query are the merchant's and may carry a token
 * (https://shop.example/hooks?token=…), which a trace must not keep. The
 * application's own span names the endpoint by id.
 */
const originOnly = (span: Span, request: ClientRequest | IncomingMessage): void => {
  if (!('getHeader' in request)) return;
  // The Host header keeps a port the request's host field leaves out.
  const origin = `${request.protocol}//${String(request.getHeader('host') ?? request.host)}`;
  span.setAttributes({ 'http.url': `${origin}/`, 'url.full': `${origin}/`, 'http.target': '/', 'url.path': '/' });
};

/** Modules the instrumentations patch; see registerClientInstrumentations. */
const PATCHED_MODULES = ['node:http', 'node:https', 'pg', 'pg-pool', 'ioredis'];

/**
 * Client spans for outgoing HTTP (webhook attempts), Postgres queries and
 * Redis commands (BullMQ included). Each one needs a parent span: the
 * publisher's polls, BullMQ's blocking reads and other background chatter
 * would otherwise start a trace of their own every few milliseconds.
 * Incoming HTTP is left alone: the gateway opens its own server span, named
 * after the route (apps/gateway/src/http/request-span.ts).
 *
 * This module is loaded only when an OTLP endpoint is configured, so a
 * service that exports nothing neither loads nor runs any of it.
 */
export function registerClientInstrumentations(): void {
  registerInstrumentations({
    instrumentations: [
      new HttpInstrumentation({ disableIncomingRequestInstrumentation: true, requireParentforOutgoingSpans: true, requestHook: originOnly }),
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: commandOnlyStatement }),
    ],
  });
  // runService loads a service's module tree (its service-parts, and with them pg and ioredis) before
  // startService starts telemetry. require-in-the-middle patches a module the next time it is required, and these patch
  // prototypes and module objects in place, so requiring them again here reaches the copies already in use.
  for (const name of PATCHED_MODULES) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- re-require to patch, see above
      require(name);
    } catch {
      // a service without Postgres or Redis may not resolve the module; nothing to patch then
    }
  }
}
