import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';

export interface LoadResult {
  requests_per_second: number;
  p50_ms: number;
  p99_ms: number;
  non_2xx: number;
  errors: number;
}

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  /** A fresh body per request (unique references and idempotency keys). */
  body: () => Record<string, unknown>;
  seconds: number;
  connections: number;
  /** Fixed total rate (req/s) for latency-at-load runs; unlimited when absent. */
  overallRate?: number;
}

/** POSTs JSON with autocannon, a new Idempotency-Key and body per request. */
export async function postLoad(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    method: 'POST',
    duration: options.seconds,
    connections: options.connections,
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID(), ...options.headers },
          body: JSON.stringify(options.body()),
        }),
      },
    ],
  });
  return {
    requests_per_second: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    non_2xx: result.non2xx,
    errors: result.errors,
  };
}
