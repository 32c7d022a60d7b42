import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOffSampler, AlwaysOnSampler, BatchSpanProcessor, NodeTracerProvider, ParentBasedSampler, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { processContext } from './process-context';

let provider: NodeTracerProvider | undefined;

/**
 * Registers W3C trace-context propagation (not baggage) and the process's async context
 * (process-context.ts), and exports spans over OTLP/HTTP when an endpoint is
 * configured, with client spans for HTTP, Postgres and Redis (instrumentations.ts). Without an
 * endpoint spans still get ids, so trace ids appear in logs and NATS headers,
 * but nothing records them: unsampled spans only carry their ids, instead of
 * timing, attributes and links that no exporter would read, and no
 * instrumentation is loaded (docs/PERFORMANCE.md). The batch delay follows
 * OTEL_BSP_SCHEDULE_DELAY (5 s by default). With an endpoint every request is
 * recorded (ParentBased(AlwaysOn)); OTEL_TRACES_SAMPLER is not read.
 */
export function startTelemetry(service: string, otlpEndpoint?: string): void {
  if (provider) return;
  const spanProcessors: SpanProcessor[] = otlpEndpoint ? [new BatchSpanProcessor(otlpExporter(otlpEndpoint))] : [];
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    spanProcessors,
    // Set here, not read from OTEL_TRACES_SAMPLER: the gateway marks a caller's trace context sampled (request-span.ts)
    // so that whether a request is recorded stays the platform's decision, which holds only while a sampled parent is
    // recorded exactly as a root is. A ratio sampler chosen in the environment would let callers bypass its ratio.
    sampler: otlpEndpoint ? new ParentBasedSampler({ root: new AlwaysOnSampler() }) : new AlwaysOffSampler(),
  });
  // Trace context only: the SDK's default also carries W3C baggage, up to 8 KB a caller chooses, which would ride every
  // bus message into the ledger's events, JetStream headers and webhook deliveries.
  provider.register({ contextManager: processContext, propagator: new W3CTraceContextPropagator() });
  if (otlpEndpoint) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy, like the exporter below
    (require('./instrumentations') as typeof import('./instrumentations')).registerClientInstrumentations();
  }
}

export async function stopTelemetry(): Promise<void> {
  await provider?.shutdown();
  provider = undefined;
}

/**
 * Loaded only when an endpoint is configured: the exporter brings protobufjs
 * and the metrics SDK, a few MB of resident memory in every service that
 * exports nothing (docs/PERFORMANCE.md).
 */
function otlpExporter(endpoint: string): SpanExporter {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy, see above
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  return new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` });
}
