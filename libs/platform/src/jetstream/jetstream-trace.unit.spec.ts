import { context, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { headers as natsHeaders, type JsMsg } from 'nats';
import { consumeTraced } from './jetstream-trace';

const SENDER_TRACE = '0af7651916cd43dd8448eb211c80319c';
const SENDER_SPAN = 'b7ad6b7169203331';
const TRACESTATE = `vendor=${'x'.repeat(200)}`;

/** A consumed message whose headers carry this trace context. */
const messageWith = (flags: '00' | '01') => {
  const headers = natsHeaders();
  headers.set('traceparent', `00-${SENDER_TRACE}-${SENDER_SPAN}-${flags}`);
  headers.set('tracestate', TRACESTATE);
  return { subject: 'pp.ingest.email.raw', headers, info: { deliveryCount: 1 } } as unknown as JsMsg;
};

describe('the consume span of a JetStream message', () => {
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

  it('given headers with flags 00 and a tracestate from an untrusted publisher, then the consume span is sampled and carries no tracestate', async () => {
    await expect(consumeTraced(messageWith('00'), async () => 'handled', { untrustedPublisher: true })).resolves.toBe('handled');
    const [span] = exporter.getFinishedSpans();
    expect({ trace: span?.spanContext().traceId, parent: span?.parentSpanContext?.spanId, tracestate: span?.spanContext().traceState }).toEqual({
      trace: SENDER_TRACE,
      parent: SENDER_SPAN,
      tracestate: undefined,
    });
  });

  it('given a trusted publisher, then the consume span follows its flags and keeps its tracestate', async () => {
    await consumeTraced(messageWith('00'), async () => undefined);
    expect(exporter.getFinishedSpans()).toEqual([]);
    await consumeTraced(messageWith('01'), async () => undefined);
    const [span] = exporter.getFinishedSpans();
    expect({ parent: span.parentSpanContext?.spanId, tracestate: span.spanContext().traceState?.serialize() }).toEqual({ parent: SENDER_SPAN, tracestate: TRACESTATE });
  });
});
