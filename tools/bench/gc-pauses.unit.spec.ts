import { parsePrometheusText } from '@pp/testing';
import { gcPausesBetween, gcTotalsOf } from './gc-pauses';

const exposition = [
  '# HELP nodejs_gc_duration_seconds Garbage collection duration by kind, one of major, minor, incremental or weakcb.',
  '# TYPE nodejs_gc_duration_seconds histogram',
  'nodejs_gc_duration_seconds_bucket{le="0.001",kind="minor",service="gateway"} 10',
  'nodejs_gc_duration_seconds_bucket{le="0.01",kind="minor",service="gateway"} 90',
  'nodejs_gc_duration_seconds_bucket{le="0.1",kind="minor",service="gateway"} 100',
  'nodejs_gc_duration_seconds_bucket{le="+Inf",kind="minor",service="gateway"} 100',
  'nodejs_gc_duration_seconds_sum{kind="minor",service="gateway"} 0.5',
  'nodejs_gc_duration_seconds_count{kind="minor",service="gateway"} 100',
  'nodejs_gc_duration_seconds_bucket{service="gateway",kind="major",le="0.01"} 1',
  'nodejs_gc_duration_seconds_bucket{service="gateway",kind="major",le="+Inf"} 4',
  'nodejs_gc_duration_seconds_sum{service="gateway",kind="major"} 0.12',
  'nodejs_gc_duration_seconds_count{service="gateway",kind="major"} 4',
  'nodejs_eventloop_lag_seconds{service="gateway"} 0.01',
  '',
].join('\n');

describe('garbage-collection pauses read from a service metrics', () => {
  it('given the histogram of two kinds, when parsed, then seconds add up over the kinds and those over 10 ms are the count past that bucket', () => {
    expect(gcTotalsOf(parsePrometheusText(exposition), 7)).toEqual({ pid: 7, seconds: 0.62, over10ms: 13 });
  });

  it('given metrics without the histogram, when parsed, then every figure is zero', () => {
    expect(gcTotalsOf(parsePrometheusText('nodejs_eventloop_lag_seconds 0.01\n'), 7)).toEqual({ pid: 7, seconds: 0, over10ms: 0 });
  });

  it('given two samples of one process, when compared, then the pause per request and the long pauses are what happened in between', () => {
    const before = new Map([['gateway', { pid: 7, seconds: 0.1, over10ms: 1 }]]);
    const after = new Map([['gateway', { pid: 7, seconds: 0.6, over10ms: 4 }]]);
    expect(gcPausesBetween(before, after, 1000)).toEqual({ gc_ms_per_request: { gateway: 0.5 }, gc_pauses_over_10ms: { gateway: 3 } });
  });

  it('given a service restarted between the samples, when compared, then its new process counts from zero', () => {
    const before = new Map([['webhooks', { pid: 7, seconds: 5, over10ms: 40 }]]);
    const after = new Map([['webhooks', { pid: 8, seconds: 0.2, over10ms: 2 }]]);
    expect(gcPausesBetween(before, after, 100)).toEqual({ gc_ms_per_request: { webhooks: 2 }, gc_pauses_over_10ms: { webhooks: 2 } });
  });
});
