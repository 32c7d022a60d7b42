import { type Context, context, type SpanOptions, SpanStatusCode, trace } from '@opentelemetry/api';

/**
 * Runs `work` inside a new active span of `tracerName`, child of `parent`
 * (the active context by default), marks it failed when `work` throws and
 * ends it when `work` settles. Without an exporter the tracer samples
 * nothing, and this costs a span id.
 */
export function inSpan<T>(tracerName: string, name: string, options: SpanOptions, work: () => Promise<T>, parent: Context = context.active()): Promise<T> {
  return trace.getTracer(tracerName).startActiveSpan(name, options, parent, async (span) => {
    try {
      return await work();
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : undefined });
      throw error;
    } finally {
      span.end();
    }
  });
}
