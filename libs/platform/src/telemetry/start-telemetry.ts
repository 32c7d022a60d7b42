import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-node';

let provider: NodeTracerProvider | undefined;

/**
 * Registers W3C trace-context propagation and async context for this process,
 * and exports spans over OTLP/HTTP when an endpoint is configured. Without an
 * endpoint spans still get ids, so trace ids appear in logs and NATS headers.
 */
export function startTelemetry(service: string, otlpEndpoint?: string): void {
  if (provider) return;
  const spanProcessors: SpanProcessor[] = otlpEndpoint
    ? [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${otlpEndpoint.replace(/\/$/, '')}/v1/traces` }))]
    : [];
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    spanProcessors,
  });
  provider.register();
}

export async function stopTelemetry(): Promise<void> {
  await provider?.shutdown();
  provider = undefined;
}
