import { propagation, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { contextOf, traceCarrier } from '../telemetry/trace-carrier';
import { jobSpanPlacement, jobTrace } from './job-trace';

const queuing = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED };

describe('trace context of BullMQ jobs', () => {
  beforeAll(() => propagation.setGlobalPropagator(new W3CTraceContextPropagator()));
  afterAll(() => propagation.disable());

  const queuedIn = trace.setSpanContext(ROOT_CONTEXT, queuing);

  it('given a span queuing the job, when queued, then its data carries that span’s traceparent', () => {
    expect(jobTrace(queuedIn)).toEqual({ trace: { traceparent: `00-${queuing.traceId}-${queuing.spanId}-01` } });
  });

  it('given no span, when queued, then the data carries no trace field', () => {
    expect(jobTrace()).toEqual({});
  });

  it('given the carrier read back, when the job continues the trace, then its span is a child of the queuing span', () => {
    const placement = jobSpanPlacement(contextOf(traceCarrier(queuedIn)), true);
    expect(trace.getSpanContext(placement.parent)).toMatchObject({ traceId: queuing.traceId, spanId: queuing.spanId, isRemote: true });
    expect(placement.links).toEqual([]);
  });

  it('given the carrier read back, when the job runs later, then its span starts a trace and links to the queuing span', () => {
    const placement = jobSpanPlacement(contextOf(traceCarrier(queuedIn)), false);
    expect(placement.parent).toBe(ROOT_CONTEXT);
    expect(placement.links.map((link) => link.context)).toEqual([expect.objectContaining({ traceId: queuing.traceId, spanId: queuing.spanId })]);
  });

  it('given a job queued outside any span, when it runs, then it neither has a parent nor links', () => {
    expect(jobSpanPlacement(contextOf(undefined), false)).toEqual({ parent: ROOT_CONTEXT, links: [] });
  });
});
