import { BASELINE_KEEPS_CONNECTIONS_SINCE, compareReports, settingsDifferences } from './compare';
import { errorRow } from './path-runner';
import type { BenchReport, Row } from './report';

const row = (path: string, throughput: string, key?: string): Row => ({ ...(key ? { key } : {}), path, throughput, p50_ms: null, p99_ms: null, baseline: '-', ratio: '-' });

const report = (over: Partial<BenchReport>): BenchReport => ({ at: '2026-12-07T00:00:00Z', node: 'v24.1.0', seconds: 10, warmup_seconds: 10, connections: 50, rows: [], ...over });

const settings = { BENCH_SECONDS: '10', BENCH_WARMUP_SECONDS: '10', BENCH_CONNECTIONS: '50', BENCH_TRACE: 'false', BENCH_FANOUT_ENDPOINTS: '4' };

describe('comparing two reports', () => {
  it('given two runs measured alike, then no difference is listed and no warning printed', () => {
    const a = report({ settings, cpu_processes_found: { postgres: true, nats: true } });
    expect(settingsDifferences(a, a)).toEqual([]);
    expect(compareReports(a, a)).not.toContain('warning');
  });

  it('given settings, Node and CPU reading that differ, then each difference is listed under a warning', () => {
    const a = report({ settings, cpu_processes_found: { postgres: true, nats: true } });
    const b = report({ node: 'v22.2.0', settings: { ...settings, BENCH_TRACE: 'true' }, cpu_processes_found: { postgres: true, nats: false } });
    expect(settingsDifferences(a, b)).toEqual(['Node: v24.1.0 → v22.2.0', 'BENCH_TRACE: false → true', 'CPU of nats: read → not found']);
    expect(compareReports(a, b)).toContain('warning: the two runs were not measured alike');
  });

  it('given an older report without settings, then only the settings it kept are compared, and it says so and how it measured otherwise', () => {
    const a = report({ seconds: 5 });
    const b = report({ settings: { ...settings, BENCH_TRACE: 'true' } });
    expect(settingsDifferences(a, b)).toEqual([
      'BENCH_SECONDS: 5 → 10',
      'A does not record its BENCH_* settings (older report): only BENCH_SECONDS, BENCH_WARMUP_SECONDS, BENCH_CONNECTIONS compared',
      expect.stringMatching(/^A predates the corrected bench: its half-load latencies are from each send/),
    ]);
  });

  it('given rows whose names carry a setting that changed, then they are matched by key and shown under the newer name', () => {
    const a = report({ rows: [row('webhook fan-out (4 endpoints)', '2000 deliveries/s', 'webhook-fanout')] });
    const b = report({ rows: [row('webhook fan-out (8 endpoints)', '2500 deliveries/s', 'webhook-fanout')] });
    const out = compareReports(a, b);
    expect(out).toContain('webhook fan-out (8 endpoints)');
    expect(out).not.toContain('webhook fan-out (4 endpoints)');
    expect(out).toContain('2000.0 → 2500.0 (+25%)');
  });

  it('given an older report without keys, then its rows match the newer keyed rows by the keys their names stand for', () => {
    const a = report({ rows: [row('create session interleaved with the baseline (median of 5)', '400 req/s')] });
    const b = report({ rows: [row('create session interleaved with the baseline (median of 7)', '440 req/s', 'create-interleaved')] });
    expect(compareReports(a, b)).toContain('400.0 → 440.0 (+10%)');
  });

  it('given webhook latencies in tenths of a millisecond, then they are compared in tenths; other rows in whole ms', () => {
    const latencies = (webhook: [number, number], create: [number, number]) => [
      { ...row('simulate-payment → signed webhook received', '-', 'webhook-latency'), p50_ms: webhook[0], p99_ms: webhook[1] },
      { ...row('create session at half of max load', '500 req/s', 'create-half'), p50_ms: create[0], p99_ms: create[1] },
    ];
    const out = compareReports(report({ rows: latencies([4.2, 23.1], [12, 51]) }), report({ rows: latencies([4.6, 23.4], [13, 55]) }));
    expect(out).toMatch(/simulate-payment → signed webhook received\s+- → -\s+4\.2 → 4\.6 \(\+10%\)\s+23\.1 → 23\.4 \(\+1%\)/);
    expect(out).toMatch(/create session at half of max load\s+500\.0 → 500\.0 \(\+0%\)\s+12 → 13 \(\+8%\)\s+51 → 55 \(\+8%\)/);
  });

  it('given an older report with one idle RSS reading, then it is compared with the newer first reading, the highest apart', () => {
    const a = report({ idle_rss_mb: { gateway: 110 } });
    const b = report({ idle_rss_mb: { gateway: 118 }, idle_rss_first_mb: { gateway: 111 } });
    const out = compareReports(a, b);
    expect(out).toMatch(/first reading[^\n]*\n[^\n]*\n[^\n]*\ngateway\s+110 → 111/);
    expect(out).toMatch(/highest reading[^\n]*\n[^\n]*\n[^\n]*\ngateway\s+- → 118/);
  });

  it('given a path that failed in one run, then its figures read failed on that side, not a missing figure, and its error is listed', () => {
    const measured = { ...row('webhook fan-out (4 endpoints)', '2000 deliveries/s', 'webhook-fanout'), cpu_ms_per_request: { webhooks: 0.2, total: 0.25 } };
    const a = report({ rows: [measured] });
    const b = report({ rows: [errorRow('webhook-fanout', 'webhook fan-out (4 endpoints)', 'the ledger to publish its events: timed out')] });

    const out = compareReports(a, b);

    expect(out).toMatch(/webhook fan-out \(4 endpoints\)\s+2000\.0 → failed\s+- → failed\s+- → failed\s+- → failed\s+- → failed/);
    expect(out).toMatch(/CPU ms per request[^\n]*\n[^\n]*\n[^\n]*\nwebhook fan-out \(4 endpoints\)\s+0\.20 → failed\s+0\.25 → failed/);
    expect(out).toContain('failed in B:\n  webhook fan-out (4 endpoints): the ledger to publish its events: timed out');
    expect(out).not.toContain('2000 → -');
  });

  it('given a report from before the baseline kept its connections, then a line says its later baseline windows reconnected; two such reports, none', () => {
    const before = report({ at: '2026-12-05T10:00:00Z', settings });
    const after = report({ at: '2026-12-07T10:00:00Z', settings });

    expect(settingsDifferences(before, after)).toEqual([
      `A predates the baseline keeping its Postgres connections (${BASELINE_KEEPS_CONNECTIONS_SINCE}): its "baseline again" and interleaved baseline windows started by reconnecting after an idle spell, so their rates (and the interleaved ratio) are not quite the newer report's`,
    ]);
    expect(settingsDifferences(after, before)[0]).toMatch(/^B predates the baseline keeping its Postgres connections/);
    expect(settingsDifferences(before, before)).toEqual([]);
    expect(settingsDifferences(after, after)).toEqual([]);
  });
});
