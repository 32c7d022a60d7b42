import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INGEST_RAW_EMAIL_CONSUMER, ingestRawEmailStreamName, LEDGER_EVENTS_STREAM, SERVICE_NAMES, WEBHOOKS_DELIVERY_CONSUMER } from '@pp/contracts';
import { CONSUMER_PENDING, DEFAULT_METRICS_PORT, exportedSeries, METRIC_CATALOG } from '@pp/platform';
import { parse } from 'yaml';

/*
 * The dashboards and alert rules are code: every pp_ metric they name must
 * be one the services export (the catalog in libs/platform/src/metrics, which
 * deploy/metrics.int.spec.ts checks against real scrapes), every alert has a
 * runbook entry, and Prometheus scrapes every service where it answers.
 */

const root = join(__dirname, '..');
const read = (...path: string[]) => readFileSync(join(root, ...path), 'utf8');
const EXPORTED = new Set(METRIC_CATALOG.flatMap(exportedSeries));
const namedIn = (expr: string): string[] => [...expr.matchAll(/\bpp_[a-z0-9_]+/g)].map((match) => match[0]);
const HTTP_PORTS: Record<string, number> = { gateway: 3000, checkout: 3001, dashboard: 3002 };

interface Panel {
  type: string;
  title: string;
  description?: string;
  datasource?: { type: string; uid: string };
  targets?: { expr: string; datasource: { uid: string } }[];
}
interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels: { severity: string };
  annotations: { summary: string; runbook: string };
}

const dashboardsDir = join(root, 'deploy', 'grafana', 'dashboards');
const dashboards = readdirSync(dashboardsDir)
  .filter((file) => file.endsWith('.json'))
  .map((file) => ({ file, json: JSON.parse(readFileSync(join(dashboardsDir, file), 'utf8')) as { uid: string; title: string; panels: Panel[] } }));
const rules = (parse(read('deploy', 'prometheus', 'alerts.yml')) as { groups: { name: string; rules: AlertRule[] }[] }).groups.flatMap((group) => group.rules);
const datasource = (parse(read('deploy', 'grafana', 'provisioning', 'datasources', 'prometheus.yml')) as { datasources: { uid: string; url: string }[] }).datasources[0];

describe('Grafana dashboards (deploy/grafana/dashboards)', () => {
  it('has one per area: API, ledger and publication, webhooks, ingest, each with a unique uid', () => {
    expect(dashboards.map((d) => d.file).sort()).toEqual(['api.json', 'ingest.json', 'ledger.json', 'webhooks.json']);
    expect(new Set(dashboards.map((d) => d.json.uid)).size).toBe(dashboards.length);
  });

  it.each(dashboards.map((d) => [d.file, d.json] as const))('%s queries the provisioned Prometheus, and explains every panel', (_file, json) => {
    const panels = json.panels.filter((panel) => panel.type !== 'row');
    expect(panels.length).toBeGreaterThan(3);
    for (const panel of panels) {
      expect([panel.title, panel.datasource?.uid]).toEqual([panel.title, datasource.uid]);
      expect([panel.title, (panel.description ?? '').length > 10]).toEqual([panel.title, true]);
      expect(panel.targets?.length).toBeGreaterThan(0);
      for (const target of panel.targets ?? []) expect(target.datasource.uid).toBe(datasource.uid);
    }
  });

  it.each(dashboards.map((d) => [d.file, d.json] as const))('%s names only metrics the services export', (_file, json) => {
    const named = json.panels.flatMap((panel) => (panel.targets ?? []).flatMap((target) => namedIn(target.expr)));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((name) => !EXPORTED.has(name))).toEqual([]);
  });

  it('shows every metric of the catalog somewhere', () => {
    const named = new Set(dashboards.flatMap((d) => d.json.panels.flatMap((panel) => (panel.targets ?? []).flatMap((target) => namedIn(target.expr)))));
    expect(METRIC_CATALOG.filter((metric) => !exportedSeries(metric).some((series) => named.has(series))).map((metric) => metric.name)).toEqual([]);
  });
});

describe('Prometheus alert rules (deploy/prometheus/alerts.yml)', () => {
  const operations = read('docs', 'OPERATIONS.md');
  /** GitHub's anchors for Markdown headings: lower case, punctuation dropped, spaces to hyphens. */
  const anchors = new Set([...operations.matchAll(/^#+ (.+)$/gm)].map((match) => match[1].toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-')));

  it('covers 5xx rate, publication lag, webhook failures and exhausted deliveries, queue depth, an unread webhooks consumer, review queue growth, ingest authentication failures and audit entries not recorded', () => {
    expect(rules.map((rule) => rule.alert)).toEqual(
      expect.arrayContaining([
        'HttpServerErrors',
        'PublicationLagging',
        'WebhookFailureRateHigh',
        'WebhookDeliveriesExhausted',
        'QueueBacklog',
        'JetStreamConsumerAbsent',
        'ReviewQueueGrowing',
        'IngestAuthenticationFailures',
        'AuditEntriesUnrecorded',
      ]),
    );
    expect(new Set(rules.map((rule) => rule.alert)).size).toBe(rules.length);
  });

  it.each(rules.map((rule) => [rule.alert, rule] as const))('%s names only exported metrics, has a severity, a summary and a runbook entry', (_name, rule) => {
    expect(namedIn(rule.expr).filter((name) => !EXPORTED.has(name))).toEqual([]);
    expect(['critical', 'warning']).toContain(rule.labels.severity);
    expect(rule.annotations.summary.length).toBeGreaterThan(10);
    expect(rule.annotations.runbook).toBe(`docs/OPERATIONS.md#${rule.alert.toLowerCase()}`);
    expect(anchors).toContain(rule.alert.toLowerCase());
  });

  it('watches for every service to be scraped: a service with no replica left is no failing target for ServiceDown', () => {
    const absent = rules.find((rule) => rule.alert === 'ServiceAbsent');
    const watched = [...(absent?.expr ?? '').matchAll(/absent\(process_start_time_seconds\{service="([a-z]+)"\}\)/g)].map((match) => match[1]);
    expect([...watched].sort()).toEqual([...SERVICE_NAMES].sort());
    expect(absent?.expr.replace(/\s/g, '')).toBe(watched.map((name) => `absent(process_start_time_seconds{service="${name}"})`).join('or'));
  });

  // An absent() of labels no series carries would fire for ever: they must be those watchConsumerLag exports.
  it('watches for the durable consumers’ backlog series by the labels watchConsumerLag gives them', () => {
    const absent = rules.find((rule) => rule.alert === 'JetStreamConsumerAbsent');
    const watched = (stream: string, consumer: string) => `absent(${CONSUMER_PENDING.name}{stream="${stream}",consumer="${consumer}"})`;
    expect(absent?.expr.replace(/\s/g, '')).toBe(
      `${watched(LEDGER_EVENTS_STREAM, WEBHOOKS_DELIVERY_CONSUMER)}or${watched(ingestRawEmailStreamName(''), INGEST_RAW_EMAIL_CONSUMER)}`,
    );
  });
});

describe('Prometheus scrape configuration (deploy/prometheus/prometheus.yml)', () => {
  const config = parse(read('deploy', 'prometheus', 'prometheus.yml')) as {
    rule_files: string[];
    scrape_configs: { metrics_path: string; dns_sd_configs: { names: string[]; port: number }[]; relabel_configs: { source_labels: string[]; target_label: string }[]; honor_labels?: boolean }[];
  };

  it('labels every target with the service it was found under, so `up` names it, and keeps the series’ own service label as scraped', () => {
    for (const job of config.scrape_configs) {
      expect(job.relabel_configs).toEqual([{ source_labels: ['__meta_dns_name'], target_label: 'service' }]);
      expect(job.honor_labels).toBe(true);
    }
  });

  it('scrapes every service at GET /metrics: the web apps on their port, the others on METRICS_PORT', () => {
    const targets = new Map<string, number>();
    for (const job of config.scrape_configs) {
      expect(job.metrics_path).toBe('/metrics');
      for (const sd of job.dns_sd_configs) for (const name of sd.names) targets.set(name, sd.port);
    }
    expect(Object.fromEntries(targets)).toEqual(Object.fromEntries(SERVICE_NAMES.map((name) => [name, HTTP_PORTS[name] ?? DEFAULT_METRICS_PORT])));
  });

  it('loads the alert rules, and Grafana reads this Prometheus', () => {
    expect(config.rule_files).toEqual(['/etc/prometheus/alerts.yml']);
    expect(datasource.url).toBe('http://prometheus:9090');
  });
});

describe('docker-compose.yml, profile observability', () => {
  const { services } = parse(read('docker-compose.yml'), { merge: true }) as {
    services: Record<string, { profiles?: string[]; volumes?: string[]; ports?: string[] }>;
  };

  it('runs Prometheus and Grafana only with the profile, provisioned read-only from deploy/, their UIs on loopback', () => {
    for (const name of ['prometheus', 'grafana']) {
      expect(services[name].profiles).toEqual(['observability']);
      for (const port of services[name].ports ?? []) expect(port).toMatch(/^127\.0\.0\.1:/);
    }
    expect(services.prometheus.volumes).toEqual(
      expect.arrayContaining(['./deploy/prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro', './deploy/prometheus/alerts.yml:/etc/prometheus/alerts.yml:ro']),
    );
    expect(services.grafana.volumes).toEqual(
      expect.arrayContaining(['./deploy/grafana/provisioning:/etc/grafana/provisioning:ro', './deploy/grafana/dashboards:/etc/grafana/dashboards:ro']),
    );
    const provider = parse(read('deploy', 'grafana', 'provisioning', 'dashboards', 'interac-checkout.yml')) as { providers: { options: { path: string } }[] };
    expect(provider.providers[0].options.path).toBe('/etc/grafana/dashboards');
    // The services themselves are not in the profile: `docker compose up` still starts them all.
    for (const name of SERVICE_NAMES) expect(services[name].profiles).toBeUndefined();
  });
});
