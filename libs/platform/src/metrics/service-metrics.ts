import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { MetricDefinition, MetricKind } from './metric-catalog';

/** One series a scrape-time reader reports: its label values and its value. */
export interface Sample<L extends string> {
  labels: Record<L, string>;
  value: number;
}

/** Reads current values at scrape time (queue depth, stream fill, a count in Postgres). */
export type SampleReader<L extends string> = () => Promise<Sample<L>[]>;

/** Gauges one reader feeds together, each under the key its samples come back by. */
export type GaugeDefinitions = Record<string, MetricDefinition<'gauge', string>>;

/** What a reader of several gauges answers: the samples of each, under the gauge's key. */
export type SamplesOf<D extends GaugeDefinitions> = { [K in keyof D]: Sample<D[K] extends MetricDefinition<'gauge', infer L> ? L : never>[] };

/** The values each label of a metric takes. */
export type LabelValues<L extends string> = Record<L, readonly string[]>;

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
  private readonly readers = new Map<string, (() => Promise<Sample<string>[]>)[]>();
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

  /**
   * With `startAtZero`, every combination of the label values it lists (each
   * label's closed set) is exported at 0 from the start: Prometheus's
   * increase() sees nothing of a series whose first sample is already 1, so
   * an alert on the first occurrence in a process would miss it.
   */
  counter<L extends string>(definition: MetricDefinition<'counter', L>, options: { startAtZero?: LabelValues<L> } = {}): Counter<L> {
    const counter = this.make(definition, () => new Counter({ ...this.common(definition) })) as Counter<L>;
    if (options.startAtZero) for (const labels of combinations(options.startAtZero)) counter.inc(labels, 0);
    return counter;
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
   * are absent rather than stale. A scrape that finds the reader's read still
   * running (an earlier scrape gave up on it) waits on that read rather than
   * starting another (oneReadAtATime).
   */
  readAtScrape<L extends string>(definition: MetricDefinition<'gauge', L>, reader: SampleReader<L>): void {
    const read = oneReadAtATime(reader, this.readTimeoutMs);
    this.feed(definition, async () => (await read()) ?? []);
  }

  /**
   * Gauges fed by one reader, read once per scrape: prom-client collects
   * every metric at once, so each gauge reading for itself would repeat the
   * query, and the two halves of a pair (a count and an age) could come
   * from two moments. Gauges collected while a read is running share it
   * (oneReadAtATime); failing or taking longer than the read timeout, it
   * reports nothing for any of them.
   */
  readAtScrapeTogether<D extends GaugeDefinitions>(definitions: D, reader: () => Promise<SamplesOf<D>>): void {
    const read = oneReadAtATime(reader, this.readTimeoutMs);
    for (const [key, definition] of Object.entries(definitions)) this.feed(definition, async () => (await read())?.[key] ?? []);
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

  /** Adds a reader to the gauge of `definition`, made at the first, which reports what all its readers read at each scrape. */
  private feed(definition: MetricDefinition<'gauge', string>, read: () => Promise<Sample<string>[]>): void {
    const readers = this.readers.get(definition.name) ?? [];
    readers.push(read);
    this.readers.set(definition.name, readers);
    if (readers.length > 1) return;
    this.make(
      definition,
      () =>
        new Gauge({
          ...this.common(definition),
          async collect() {
            const results = await Promise.all(readers.map((readOne) => readOne()));
            this.reset();
            for (const sample of results.flat()) this.set(sample.labels, sample.value);
          },
        }),
    );
  }

  private make(definition: MetricDefinition, create: () => Counter<string> | Gauge<string> | Histogram<string>) {
    const existing = this.made.get(definition.name);
    if (existing) return existing;
    const metric = create();
    this.made.set(definition.name, metric);
    return metric;
  }
}

/** Every way to pick one value for each label. */
function combinations<L extends string>(values: LabelValues<L>): Record<L, string>[] {
  return (Object.entries(values) as [L, readonly string[]][]).reduce(
    (picked, [label, options]) => picked.flatMap((labels) => options.map((value) => ({ ...labels, [label]: value }))),
    [{} as Record<L, string>],
  );
}

/**
 * `read` for a scrape: what it answers within `timeoutMs`, undefined when it
 * fails or takes longer. A scrape that gives up cannot stop the read (a
 * query runs on in Postgres, holding its pool connection), so the read stays
 * in flight until it settles, and scrapes meanwhile wait on it rather than
 * start another: against a slow database, one connection per reader, not one
 * more at every scrape. A read that settles after its scrapes gave up is
 * dropped; the next scrape reads afresh.
 */
function oneReadAtATime<T>(read: () => Promise<T>, timeoutMs: number): () => Promise<T | undefined> {
  let running: Promise<T | undefined> | undefined;
  return () => {
    running ??= read()
      .catch(() => undefined)
      .finally(() => {
        running = undefined;
      });
    return within(running, timeoutMs);
  };
}

/** What `answer` settles to within `timeoutMs`; undefined after that. */
async function within<T>(answer: Promise<T | undefined>, timeoutMs: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), timeoutMs);
  });
  try {
    return await Promise.race([answer, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
