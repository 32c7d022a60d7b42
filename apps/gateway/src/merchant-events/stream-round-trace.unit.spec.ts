import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { inStreamRound } from './stream-round-trace';

describe('an event stream’s rounds', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(provider);
  });
  afterAll(async () => {
    await provider.shutdown();
    trace.disable();
    context.disable();
  });

  it('given a stream opened by a request, when it looks three times: three traces of their own, each linked to the request, with the look’s calls inside', async () => {
    const opened = trace.getTracer('test').startSpan('HTTP GET /v1/events/stream');
    const tracer = trace.getTracer('test');
    for (let round = 0; round < 3; round++) {
      await inStreamRound(opened, async () => tracer.startSpan('bus ledger.merchant-events.list.v1').end());
    }
    opened.end();

    const spans = exporter.getFinishedSpans();
    const rounds = spans.filter((span) => span.name === 'event stream round');
    const looks = spans.filter((span) => span.name.startsWith('bus '));
    const requestTrace = opened.spanContext().traceId;
    expect(new Set(rounds.map((span) => span.spanContext().traceId)).size).toBe(3);
    expect(rounds.map((span) => span.spanContext().traceId)).not.toContain(requestTrace);
    expect(rounds.map((span) => span.links.map((link) => link.context.spanId))).toEqual([[opened.spanContext().spanId], [opened.spanContext().spanId], [opened.spanContext().spanId]]);
    expect(looks.map((span) => span.parentSpanContext?.spanId).sort()).toEqual(rounds.map((span) => span.spanContext().spanId).sort());
  });
});
