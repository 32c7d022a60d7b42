import { context, type Context, propagation, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { untrustedParent, urlPath } from '@pp/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';

const tracer = trace.getTracer('pp-gateway');

declare module 'fastify' {
  interface FastifyRequest {
    /** The server span of this request; bus calls made for it are its children. */
    span: Span | undefined;
  }
}

/**
 * Opens the request's server span, continuing the caller's trace when it
 * sends a W3C `traceparent` (callersTrace), and returns the context to run
 * the request in.
 */
export function startRequestSpan(request: FastifyRequest): Context {
  const parent = callersTrace(request.headers);
  const span = tracer.startSpan(
    `HTTP ${request.method}`,
    { kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method, 'url.path': urlPath(request.url), 'pp.request_id': request.requestId } },
    parent,
  );
  request.span = span;
  return trace.setSpan(parent, span);
}

/**
 * What the public edge takes of a caller's trace context: its trace id and
 * span, so a merchant backend that traces its checkout finds the payment in
 * its own trace (docs/ARCHITECTURE.md, Tracing). Not its `tracestate`, up
 * to 512 characters of the caller's choosing that every bus hop would carry
 * and every event's metadata keep; nor its sampled flag: whether the
 * request is recorded stays the gateway's decision, as for a request without
 * a traceparent (startTelemetry's samplers, AlwaysOff or ParentBased(AlwaysOn),
 * set there and not from the environment, record a sampled remote parent
 * exactly when they record a root), so no caller can keep its requests out
 * of the traces, or force them in.
 */
const callersTrace = (headers: FastifyRequest['headers']): Context => untrustedParent(propagation.extract(ROOT_CONTEXT, headers));

/** The context to re-enter after the body was read (see reenterRequestContext). */
export const requestSpanContext = (request: FastifyRequest): Context =>
  request.span ? trace.setSpan(context.active(), request.span) : context.active();

/**
 * When the answer is done (whenAnswerEnds): names the span after its route
 * and closes it with the status, an error from 500 up (as OpenTelemetry's
 * conventions have it for a server: a 4xx, and a client that left, 499, as
 * any event stream's reader does, are the client's doing).
 */
export function endRequestSpan(request: FastifyRequest, _reply: FastifyReply, status: number): void {
  const span = request.span;
  if (!span) return;
  if (request.routeOptions.url) span.updateName(`HTTP ${request.method} ${request.routeOptions.url}`);
  span.setAttribute('http.response.status_code', status);
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}
