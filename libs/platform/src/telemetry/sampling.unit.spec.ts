import { context, propagation, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { startTelemetry, stopTelemetry } from './start-telemetry';

/*
 * With an exporter every request is recorded, whatever the environment says:
 * the gateway marks a caller's trace context sampled (request-span.ts), which
 * is the platform's decision only while a sampled parent is recorded exactly
 * as a root is.
 */
describe('sampling with an exporter configured', () => {
  const saved = { sampler: process.env.OTEL_TRACES_SAMPLER, argument: process.env.OTEL_TRACES_SAMPLER_ARG };

  beforeAll(() => {
    process.env.OTEL_TRACES_SAMPLER = 'traceidratio';
    process.env.OTEL_TRACES_SAMPLER_ARG = '0';
    startTelemetry('sampling-spec', 'http://127.0.0.1:9');
  });
  afterAll(async () => {
    await stopTelemetry();
    for (const [name, value] of [['OTEL_TRACES_SAMPLER', saved.sampler], ['OTEL_TRACES_SAMPLER_ARG', saved.argument]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    trace.disable();
    propagation.disable();
    context.disable();
  });

  it('given OTEL_TRACES_SAMPLER asking for none, then a root and a sampled remote parent are recorded all the same, and an unsampled parent (an internal hop that decided) is followed', () => {
    const tracer = trace.getTracer('sampling-spec');
    const parent = (traceFlags: TraceFlags) =>
      trace.setSpanContext(ROOT_CONTEXT, { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags, isRemote: true });
    expect(tracer.startSpan('root').isRecording()).toBe(true);
    expect(tracer.startSpan('from a sampled parent', {}, parent(TraceFlags.SAMPLED)).isRecording()).toBe(true);
    expect(tracer.startSpan('from an unsampled parent', {}, parent(TraceFlags.NONE)).isRecording()).toBe(false);
  });
});
