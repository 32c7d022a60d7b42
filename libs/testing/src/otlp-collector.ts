import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** OTLP span kinds as numbers on the wire. */
export enum OtlpSpanKind {
  Internal = 1,
  Server = 2,
  Client = 3,
  Producer = 4,
  Consumer = 5,
}

/** One exported span, as the services' OTLP/HTTP JSON exporter sends it (ids in hex). */
export interface CollectedSpan {
  service: string;
  name: string;
  kind: OtlpSpanKind;
  traceId: string;
  spanId: string;
  /** Empty for a trace's root. */
  parentSpanId: string;
  links: { traceId: string; spanId: string }[];
  attributes: Record<string, unknown>;
  /** Milliseconds since the epoch, with the sub-millisecond part. */
  startMs: number;
  endMs: number;
}

interface OtlpAttribute {
  key: string;
  value: Record<string, unknown>;
}

/**
 * The smallest OTLP/HTTP trace collector: accepts `POST /v1/traces` in JSON
 * (what @opentelemetry/exporter-trace-otlp-http sends) and keeps every span.
 * Point the services' OTEL_EXPORTER_OTLP_ENDPOINT at `url`.
 */
export class OtlpCollector {
  readonly spans: CollectedSpan[] = [];

  private constructor(private readonly server: Server) {}

  static async start(): Promise<OtlpCollector> {
    const server = createServer();
    const collector = new OtlpCollector(server);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (request.method !== 'POST' || request.url !== '/v1/traces') {
          response.writeHead(404).end();
          return;
        }
        collector.take(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return collector;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Every span of one trace. */
  trace(traceId: string): CollectedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private take(body: { resourceSpans?: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans?: { spans?: Record<string, unknown>[] }[] }[] }): void {
    for (const resourceSpans of body.resourceSpans ?? []) {
      const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          this.spans.push({
            service,
            name: span.name as string,
            kind: span.kind as OtlpSpanKind,
            traceId: span.traceId as string,
            spanId: span.spanId as string,
            parentSpanId: (span.parentSpanId as string | undefined) ?? '',
            links: ((span.links as { traceId: string; spanId: string }[] | undefined) ?? []).map(({ traceId, spanId }) => ({ traceId, spanId })),
            attributes: attributesOf(span.attributes as OtlpAttribute[] | undefined),
            startMs: nanosToMs(span.startTimeUnixNano),
            endMs: nanosToMs(span.endTimeUnixNano),
          });
        }
      }
    }
  }
}

/** OTLP JSON times: nanoseconds as a decimal string, or as the exporter's `{ low, high }` 32-bit halves. */
function nanosToMs(value: unknown): number {
  if (typeof value === 'string' || typeof value === 'number') return Number(BigInt(value) / 1000n) / 1000;
  const { low = 0, high = 0 } = (value ?? {}) as { low?: number; high?: number };
  return Number(((BigInt(high >>> 0) << 32n) | BigInt(low >>> 0)) / 1000n) / 1000;
}

/** OTLP's typed attribute values (`{ stringValue }`, `{ intValue }`, …) as plain values. */
function attributesOf(list: OtlpAttribute[] | undefined): Record<string, unknown> {
  const plain: Record<string, unknown> = {};
  for (const { key, value } of list ?? []) {
    const [kind, raw] = Object.entries(value)[0] ?? [];
    plain[key] = kind === 'intValue' ? Number(raw) : kind === 'arrayValue' ? ((raw as { values?: Record<string, unknown>[] }).values ?? []).map((v) => Object.values(v)[0]) : raw;
  }
  return plain;
}
