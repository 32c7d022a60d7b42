import type { FastifyInstance } from 'fastify';
import type { Counter, Histogram } from 'prom-client';
import { whenAnswerEnds } from '../http/answer-ended';
import { HTTP_REQUEST_DURATION, HTTP_REQUESTS } from './metric-catalog';
import type { ServiceMetrics } from './service-metrics';

/** Where every web app answers Prometheus (docs/OPERATIONS.md, Metrics). */
export const METRICS_PATH = '/metrics';
/** The route label of a request that matched no route: never the raw URL, which anyone can vary. */
export const UNMATCHED_ROUTE = 'unmatched';

interface RouteSeries {
  requests: Counter.Internal;
  duration: Histogram.Internal<string>;
}

/**
 * Request count and duration per route template, method and status. The
 * series of each combination is looked up once and kept, so a request costs
 * a map lookup and two increments, and Fastify's own elapsed time is used.
 */
export class HttpMetrics {
  private readonly requests: Counter<'route' | 'method' | 'status'>;
  private readonly duration: Histogram<'route' | 'method'>;
  private readonly series = new Map<string, RouteSeries>();

  constructor(metrics: ServiceMetrics) {
    this.requests = metrics.counter(HTTP_REQUESTS);
    this.duration = metrics.histogram(HTTP_REQUEST_DURATION);
  }

  record(method: string, route: string | undefined, status: number, elapsedMs: number): void {
    const template = route ?? UNMATCHED_ROUTE;
    const key = `${method} ${status} ${template}`;
    let found = this.series.get(key);
    if (!found) {
      found = { requests: this.requests.labels(template, method, String(status)), duration: this.duration.labels(template, method) };
      this.series.set(key, found);
    }
    found.requests.inc();
    found.duration.observe(elapsedMs / 1000);
  }
}

/**
 * Measures every request of a web app and answers GET /metrics on its port
 * (scrapes themselves are not measured). The answer holds aggregate counts
 * and route templates only, which the API description already publishes;
 * the public proxy in front need not route it (docs/OPERATIONS.md).
 */
export function serveHttpMetrics(fastify: FastifyInstance, metrics: ServiceMetrics): void {
  const http = new HttpMetrics(metrics);
  whenAnswerEnds(fastify, (request, reply, status) => {
    const route = request.routeOptions.url;
    if (route !== METRICS_PATH) http.record(request.method, route, status, reply.elapsedTime);
  });
  fastify.get(METRICS_PATH, async (_request, reply) => {
    const text = await metrics.text();
    return reply.header('content-type', metrics.contentType).header('cache-control', 'no-store').send(text);
  });
}
