import { exportedSeries, METRIC_CATALOG } from './metric-catalog';

/** Label names that would carry one value per entity: unbounded series. */
const UNBOUNDED_LABEL = /(^|_)(id|ids|url|uri|path|email|address|key|reference|memo)$/;

describe('the metric catalog', () => {
  it('names every metric once, with the pp_ prefix and Prometheus’ unit and _total conventions', () => {
    const names = METRIC_CATALOG.map((metric) => metric.name);
    expect(new Set(names).size).toBe(names.length);
    for (const metric of METRIC_CATALOG) {
      expect(metric.name).toMatch(/^pp_[a-z][a-z0-9_]*$/);
      expect(metric.name.endsWith('_total')).toBe(metric.kind === 'counter');
      if (metric.kind === 'histogram') expect(metric.buckets?.length).toBeGreaterThan(0);
      expect(metric.help.length).toBeGreaterThan(10);
    }
    expect(names.filter((name) => name.includes('duration'))).toEqual(names.filter((name) => name.endsWith('_duration_seconds')));
  });

  it('labels by closed sets only: no label named after an id, address or URL', () => {
    for (const metric of METRIC_CATALOG) for (const label of metric.labels) expect(`${metric.name} ${label}`).not.toMatch(UNBOUNDED_LABEL);
    // The rule itself catches such names.
    expect('endpoint_id').toMatch(UNBOUNDED_LABEL);
  });

  it('lists the series a histogram exports under its name', () => {
    const histogram = METRIC_CATALOG.find((metric) => metric.name === 'pp_http_request_duration_seconds')!;
    expect(exportedSeries(histogram)).toEqual([
      'pp_http_request_duration_seconds_bucket',
      'pp_http_request_duration_seconds_sum',
      'pp_http_request_duration_seconds_count',
    ]);
  });
});
