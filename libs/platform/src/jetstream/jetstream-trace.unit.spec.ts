import { inMemoryTracing } from '@pp/testing';
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
  const exporter = inMemoryTracing();

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
