import { createServer, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServiceHealthReply } from '@pp/contracts';
import { urlPath } from '../http/url-path';
import { METRICS_PATH } from './http-metrics';
import type { ServiceMetrics } from './service-metrics';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** The probes' paths: the process answers; the process can serve (its own checks, not another replica's). */
export const LIVENESS_PATH = '/livez';
export const READINESS_PATH = '/readyz';

/**
 * GET /metrics on METRICS_PORT for a service without an HTTP port of its
 * own (sessions, ledger, ingest, refunds, webhooks), and this pod's probes:
 * GET /livez answers while the process runs its event loop, whatever its
 * dependencies (a restart mends no outage of Postgres, Redis or NATS, whose
 * clients reconnect by themselves); GET /readyz answers 200 or 503 with this
 * process's own health (`readiness`). It answers nothing else, reads no body
 * and needs no framework.
 */
export async function startMetricsServer(metrics: ServiceMetrics, port: number, readiness: () => Promise<ServiceHealthReply>): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    const path = request.method === 'GET' ? urlPath(request.url ?? '/') : undefined;
    if (path === METRICS_PATH) {
      metrics.text().then(
        (text) => response.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' }).end(text),
        () => response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
      );
    } else if (path === LIVENESS_PATH) {
      answerJson(response, 200, { status: 'ok' });
    } else if (path === READINESS_PATH) {
      readiness().then(
        (report) => answerJson(response, report.status === 'up' ? 200 : 503, report),
        (error: Error) => answerJson(response, 503, { status: 'down', error: error.message }),
      );
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    }
  });
  server.keepAliveTimeout = 65_000; // longer than Prometheus' scrape interval, so one connection serves many scrapes
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '0.0.0.0', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

function answerJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}
