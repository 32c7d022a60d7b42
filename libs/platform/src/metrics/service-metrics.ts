import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { MetricDefinition, MetricKind } from './metric-catalog';

/** One series a scrape-time reader reports: its label values and its value. */
export interface Sample<L extends string> {
  labels: Record<L, string>;
  value: number;
}

/** Reads current values at scrape time (queue depth, consumer lag, a count in Postgres). */
export type SampleReader<L extends string> = () => Promise<Sample<L>[]>;

/** Longest one reader may take; Prometheus waits for the whole scrape, and one slow dependency must not stall it. */
export const READ_TIMEOUT_MS = 3000;

export interface ServiceMetricsOptions {
  /** Process and Node.js metrics (CPU, memory, event loop lag, GC); off only where several registries share one process (tests). */
  processMetrics?: boolean;
  /** Longest one scrape-time reader may take (default READ_TIMEOUT_MS). */
  readTimeoutMs?: number;
}

/**
 * One service's Prometheus registry. Metrics are made from the catalog's
 * definitions, once per name (a second request answers the same metric);
 * every series carries the label `service`.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly made = new Map<string, Counter<string> | Gauge<string> | Histogram<string>>();
  private readonly readers = new Map<string, SampleReader<string>[]>();
  private readonly readTimeoutMs: number;

  constructor(
    readonly service: string,
    options: ServiceMetricsOptions = {},
  ) {
    this.readTimeoutMs = options.readTimeoutMs ?? READ_TIMEOUT_MS;
    this.registry.setDefaultLabels({ service });
    // The event-loop delay monitor wakes the loop at this interval (ms); prom-client's 10 doubles the idle wake-ups for little.
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 20 });
  }

  counter<L extends string>(definition: MetricDefinition<'counter', L>): Counter<L> {
    return this.make(definition, () => new Counter({ ...this.common(definition) })) as Counter<L>;
  }

  histogram<L extends string>(definition: MetricDefinition<'histogram', L>): Histogram<L> {
    return this.make(definition, () => new Histogram({ ...this.common(definition), buckets: [...(definition.buckets ?? [])] })) as Histogram<L>;
  }

  gauge<L extends string>(definition: MetricDefinition<'gauge', L>): Gauge<L> {
    return this.make(definition, () => new Gauge({ ...this.common(definition) })) as Gauge<L>;
  }

  /**
   * A gauge whose series are read at each scrape. Several readers may feed
   * one gauge (two queues in one service). A reader that fails or takes
   * longer than the read timeout reports nothing for that scrape: its series
   * are absent rather than stale.
   */
  readAtScrape<L extends string>(definition: MetricDefinition<'gauge', L>, reader: SampleReader<L>): void {
    const readers = this.readers.get(definition.name) ?? [];
    readers.push(reader as SampleReader<string>);
    this.readers.set(definition.name, readers);
    if (readers.length > 1) return;
    const timeoutMs = this.readTimeoutMs;
    this.make(
      definition,
      () =>
        new Gauge({
          ...this.common(definition),
          async collect() {
            const results = await Promise.all(readers.map((read) => readWithin(read, timeoutMs)));
            this.reset();
            for (const sample of results.flat()) this.set(sample.labels as Record<L, string>, sample.value);
          },
        }),
    );
  }

  /**
   * A counter whose series are read at each scrape from a running total
   * that something else keeps (a client library's own statistics), so the
   * hot path counts nothing twice.
   */
  totalAtScrape<L extends string>(definition: MetricDefinition<'counter', L>, read: () => Sample<L>[]): void {
    this.make(
      definition,
      () =>
        new Counter({
          ...this.common(definition),
          collect() {
            this.reset();
            for (const sample of read()) this.inc(sample.labels as Record<L, string>, sample.value);
          },
        }),
    );
  }

  /** The exposition text of every metric (prom-client runs the scrape-time readers first). */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private common<L extends string>(definition: MetricDefinition<MetricKind, L>) {
    return { name: definition.name, help: definition.help, labelNames: definition.labels, registers: [this.registry] };
  }

  private make(definition: MetricDefinition, create: () => Counter<string> | Gauge<string> | Histogram<string>) {
    const existing = this.made.get(definition.name);
    if (existing) return existing;
    const metric = create();
    this.made.set(definition.name, metric);
    return metric;
  }
}

async function readWithin(reader: SampleReader<string>, timeoutMs: number): Promise<Sample<string>[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Sample<string>[]>((resolve) => {
    timer = setTimeout(() => resolve([]), timeoutMs);
  });
  try {
    return await Promise.race([reader().catch(() => []), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
