import { context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';
import { startTelemetry, stopTelemetry } from './start-telemetry';

describe('telemetry propagation', () => {
  beforeAll(() => startTelemetry('propagation-spec'));
  afterAll(async () => {
    await stopTelemetry();
    propagation.disable();
    context.disable();
  });

  it('given a caller’s traceparent and baggage, then only the trace context is passed on', () => {
    const incoming = {
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      tracestate: 'vendor=value',
      baggage: `filler=${'x'.repeat(4000)},user=attacker`,
    };
    const carrier: Record<string, string> = {};
    propagation.inject(propagation.extract(ROOT_CONTEXT, incoming), carrier);
    expect(carrier).toEqual({ traceparent: incoming.traceparent, tracestate: 'vendor=value' });
  });
});
