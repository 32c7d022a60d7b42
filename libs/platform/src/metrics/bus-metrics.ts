import { ErrorCode } from '@pp/contracts';
import type { Counter, Histogram } from 'prom-client';
import { BUS_CLIENT_REQUEST_DURATION, BUS_CLIENT_REQUESTS, BUS_REQUEST_DURATION, BUS_REQUESTS } from './metric-catalog';
import type { ServiceMetrics } from './service-metrics';

/** The outcomes of a request other than an error code; the HELP of pp_bus_requests_total names each. */
export const BUS_OUTCOMES = {
  ok: 'ok',
  /** A request dropped unanswered because its caller's deadline had passed. */
  expired: 'expired',
  /** A request dropped unanswered because its reply subject was not one of its callers' inboxes. */
  misdirected: 'misdirected',
} as const;
const ERROR_CODES: ReadonlySet<string> = new Set(Object.values(ErrorCode));

/** The outcome label of a reply: ok, or its error code when it is one of ErrorCode (INTERNAL otherwise, so a peer cannot mint labels). */
export const busOutcome = (reply: { ok: true } | { ok: false; error: { code: string } }): string =>
  reply.ok ? BUS_OUTCOMES.ok : ERROR_CODES.has(reply.error.code) ? reply.error.code : ErrorCode.Internal;

interface SubjectSeries {
  count: Map<string, Counter.Internal>;
  duration: Histogram.Internal<string>;
}

/** Per-subject series, looked up once and kept (subjects are the registry's, outcomes a closed set). */
class SubjectTable {
  private readonly bySubject = new Map<string, SubjectSeries>();

  constructor(
    private readonly requests: Counter<'subject' | 'outcome'>,
    private readonly duration: Histogram<'subject'>,
  ) {}

  record(subject: string, outcome: string, seconds: number | null): void {
    let series = this.bySubject.get(subject);
    if (!series) {
      series = { count: new Map(), duration: this.duration.labels(subject) };
      this.bySubject.set(subject, series);
    }
    let count = series.count.get(outcome);
    if (!count) {
      count = this.requests.labels(subject, outcome);
      series.count.set(outcome, count);
    }
    count.inc();
    if (seconds !== null) series.duration.observe(seconds);
  }
}

/**
 * Rate, errors and duration of bus requests, as served (NatsBusServer) and
 * as sent (BusClient). Subjects are labelled without PP_NAMESPACE.
 */
export class BusMetrics {
  private readonly served: SubjectTable;
  private readonly sent: SubjectTable;

  constructor(metrics: ServiceMetrics) {
    this.served = new SubjectTable(metrics.counter(BUS_REQUESTS), metrics.histogram(BUS_REQUEST_DURATION));
    this.sent = new SubjectTable(metrics.counter(BUS_CLIENT_REQUESTS), metrics.histogram(BUS_CLIENT_REQUEST_DURATION));
  }

  /** A request answered after `ms` milliseconds (performance.now() differences). */
  answered(subject: string, outcome: string, ms: number): void {
    this.served.record(subject, outcome, ms / 1000);
  }

  /** A request left unanswered because its caller had already given up: counted, not timed. */
  expired(subject: string): void {
    this.served.record(subject, BUS_OUTCOMES.expired, null);
  }

  /** A request refused unanswered because its reply subject was no caller's inbox: counted, not timed. */
  misdirected(subject: string): void {
    this.served.record(subject, BUS_OUTCOMES.misdirected, null);
  }

  /** A request this service sent, and what came of it after `ms` milliseconds. */
  called(subject: string, outcome: string, ms: number): void {
    this.sent.record(subject, outcome, ms / 1000);
  }
}
