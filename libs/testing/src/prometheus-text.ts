/** One sample of a Prometheus text exposition: `name{label="value",...} value`. */
export interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scrape {
  samples: MetricSample[];
  /** Every metric the text declares (`# TYPE name kind`), including those with no sample yet. */
  declared: Set<string>;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Reads the text format prom-client writes (version 0.0.4), for assertions on what a service exports. */
export function parsePrometheusText(text: string): Scrape {
  const samples: MetricSample[] = [];
  const declared = new Set<string>();
  for (const line of text.split('\n')) {
    if (line.startsWith('# TYPE ')) declared.add(line.split(' ')[2]);
    const match = line.startsWith('#') ? null : SAMPLE.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL)) labels[key] = value.replace(/\\(.)/g, (_escape, char: string) => (char === 'n' ? '\n' : char));
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return { samples, declared };
}

/** The sum of a metric's samples whose labels include `labels` (0 when none). */
export const sampleSum = (scrape: Scrape, name: string, labels: Record<string, string> = {}): number =>
  scrape.samples
    .filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0);

/** Fetches and parses one service's GET /metrics. */
export async function scrape(url: string): Promise<Scrape> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
  return parsePrometheusText(await response.text());
}
