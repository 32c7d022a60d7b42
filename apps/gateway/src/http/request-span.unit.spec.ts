import { context, propagation, SpanStatusCode, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { endRequestSpan, startRequestSpan } from './request-span';

const CALLER_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN = 'b7ad6b7169203331';

/** A request as the span reads it, with these headers. */
const requestWith = (headers: Record<string, string>) => ({ method: 'POST', url: '/v1/checkout/sessions', requestId: 'req-1', headers }) as unknown as FastifyRequest;

/** The trace context the request's bus calls would carry (their NATS headers). */
const propagatedFrom = (request: FastifyRequest): Record<string, string> => {
  const carrier: Record<string, string> = {};
  propagation.inject(startRequestSpan(request), carrier);
  request.span?.end();
  return carrier;
};

describe('the request span at the public edge', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }); // the SDK's default sampler, as startTelemetry's with an exporter

  beforeAll(() => {
    trace.setGlobalTracerProvider(provider);
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  });
  afterEach(() => exporter.reset());
  afterAll(async () => {
    await provider.shutdown();
    trace.disable();
    propagation.disable();
    context.disable();
  });

  it('given a caller’s traceparent, then the request span continues its trace under its span', () => {
    const request = requestWith({ traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` });
    propagatedFrom(request);
    const [span] = exporter.getFinishedSpans();
    expect({ trace: span.spanContext().traceId, parent: span.parentSpanContext?.spanId }).toEqual({ trace: CALLER_TRACE, parent: CALLER_SPAN });
  });

  it('given a caller’s tracestate, then it is not passed on to the bus calls', () => {
    const carrier = propagatedFrom(requestWith({ traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01`, tracestate: `vendor=${'x'.repeat(200)}` }));
    expect(carrier).toEqual({ traceparent: expect.stringMatching(new RegExp(`^00-${CALLER_TRACE}-[0-9a-f]{16}-01$`)) });
  });

  it('given a caller asking not to be sampled, then the request is recorded all the same', () => {
    const carrier = propagatedFrom(requestWith({ traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-00` }));
    expect(exporter.getFinishedSpans()).toHaveLength(1);
    expect(carrier.traceparent).toMatch(/-01$/);
  });

  it('given no traceparent, then the request starts a trace of its own', () => {
    propagatedFrom(requestWith({}));
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.parentSpanContext)).toEqual([undefined]);
  });

  it('given a client that left before its answer (499), then the span is ended under its route, not as an error (the client’s doing), so the trace of an abandoned request is exported', () => {
    const request = { ...requestWith({}), routeOptions: { url: '/v1/checkout/sessions' } } as unknown as FastifyRequest;
    startRequestSpan(request);
    endRequestSpan(request, {} as FastifyReply, 499);
    const [span] = exporter.getFinishedSpans();
    expect({ name: span.name, status: span.status.code, code: span.attributes['http.response.status_code'] }).toEqual({
      name: 'HTTP POST /v1/checkout/sessions',
      status: SpanStatusCode.UNSET,
      code: 499,
    });
  });
});
