import { context, trace, TraceFlags } from '@opentelemetry/api';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTelemetry, stopTelemetry } from '../telemetry/start-telemetry';
import { requestContext } from './request-context';

const span = (spanId: string) => trace.wrapSpanContext({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId, traceFlags: TraceFlags.NONE });

describe('request context', () => {
  it('given no request, when read, then there is none', () => {
    expect(requestContext.current()).toBeUndefined();
  });

  it('given two requests in flight, when each awaits timers and promises, then each reads its own context and none leaks out', async () => {
    const seen = await Promise.all(
      ['req-a', 'req-b'].map((requestId, i) =>
        requestContext.run({ requestId, deadline: 1_000 + i }, async () => {
          await sleep(5 - i * 4);
          await Promise.resolve();
          return requestContext.current();
        }),
      ),
    );
    expect(seen).toEqual([
      { requestId: 'req-a', deadline: 1_000 },
      { requestId: 'req-b', deadline: 1_001 },
    ]);
    expect(requestContext.current()).toBeUndefined();
  });

  describe('with telemetry started', () => {
    beforeAll(() => startTelemetry('request-context-spec'));
    afterAll(() => stopTelemetry());

    it('given a request inside a span, when read after an await, then both the request and the span are active', async () => {
      const server = span('b7ad6b7169203331');
      const inside = await context.with(trace.setSpan(context.active(), server), () =>
        requestContext.run({ requestId: 'req-c' }, async () => {
          await sleep(1);
          return { request: requestContext.current(), span: trace.getActiveSpan() };
        }),
      );
      expect(inside).toEqual({ request: { requestId: 'req-c' }, span: server });
    });

    it('given a request, when a child span becomes active, then the request context stays', async () => {
      const child = span('00f067aa0ba902b7');
      const inside = await requestContext.run({ requestId: 'req-d' }, () =>
        context.with(trace.setSpan(context.active(), child), async () => {
          await Promise.resolve();
          return { request: requestContext.current(), span: trace.getActiveSpan() };
        }),
      );
      expect(inside).toEqual({ request: { requestId: 'req-d' }, span: child });
    });
  });
});
