import { type Context, context, type Link, ROOT_CONTEXT, SpanKind } from '@opentelemetry/api';
import { inSpan } from '../telemetry/in-span';
import { contextOf, linksTo, type TraceCarrier, traceCarrier } from '../telemetry/trace-carrier';

/**
 * The trace context a BullMQ job carries in its data: that of the code that
 * queued it (no BullMQ instrumentation exists for the version in use).
 */
export interface TracedJobData {
  trace?: TraceCarrier;
}

/** What to spread into a job's data when queuing it: the trace context (by default the active one), if any. */
export function jobTrace(ctx: Context = context.active()): TracedJobData {
  const carrier = traceCarrier(ctx);
  return Object.keys(carrier).length > 0 ? { trace: carrier } : {};
}

/**
 * Where the span of a job queued in context `queuedBy` goes. A job usually runs later (at a deadline, as a
 * retry), so its span starts a trace of its own and links to the one that
 * queued it; a trace never grows by days or without end. `continueTrace`
 * makes it a child instead, for work that belongs to the flow that queued it.
 */
export function jobSpanPlacement(queuedBy: Context, continueTrace: boolean): { parent: Context; links: Link[] } {
  return continueTrace ? { parent: queuedBy, links: [] } : { parent: ROOT_CONTEXT, links: linksTo(queuedBy) };
}

/** Runs a job inside a consumer span `job <queue>`, linked to the trace that queued it. */
export function runJobTraced<T>(queue: string, job: { id?: string; data: TracedJobData }, work: () => Promise<T>): Promise<T> {
  const { parent, links } = jobSpanPlacement(contextOf(job.data.trace), false);
  return inSpan(
    'pp-queue',
    `job ${queue}`,
    { kind: SpanKind.CONSUMER, links, attributes: { 'messaging.system': 'bullmq', 'messaging.destination.name': queue, ...(job.id ? { 'messaging.message.id': job.id } : {}) } },
    work,
    parent,
  );
}
