import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';

export interface LoadResult {
  /** Answers received (any status). */
  requests: number;
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
}

/** POSTs JSON with autocannon, a new Idempotency-Key and body per request. */
export async function postLoad(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    method: 'POST',
    duration: options.seconds,
    connections: options.connections,
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
    requests: result.requests.total,
    requests_per_second: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    non_2xx: result.non2xx,
    errors: result.errors,
  };
}

/**
 * POSTs at a steady rate, evenly spaced (open loop: a slow answer does not
 * delay the next request), and times each from its send to its full answer.
 * For latency at a given load: autocannon's rate limit sends each second's
 * requests in one burst, which measures queueing at full load instead.
 */
export async function pacedLoad(options: LoadOptions & { rate: number }): Promise<LoadResult> {
  const target = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const inFlight = new Set<Promise<void>>();
  const send = async (): Promise<void> => {
    const body = JSON.stringify(options.body());
    const headers = { 'content-type': 'application/json', 'idempotency-key': randomUUID(), ...options.headers };
    const started = performance.now();
    try {
      const { status } = await httpPost(agent, target, headers, body);
      latencies.push(performance.now() - started);
      if (status < 200 || status >= 300) non2xx++;
    } catch {
      errors++;
    }
  };
  const begun = performance.now();
  const total = Math.round(options.rate * options.seconds);
  for (let sent = 0; sent < total; ) {
    const due = Math.min(total, Math.floor(((performance.now() - begun) / 1000) * options.rate) + 1);
    for (; sent < due; sent++) {
      const pending = send().finally(() => inFlight.delete(pending));
      inFlight.add(pending);
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(inFlight);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? 0);
  return {
    requests: latencies.length,
    requests_per_second: Math.round(latencies.length / ((performance.now() - begun) / 1000)),
    p50_ms: at(0.5),
    p99_ms: at(0.99),
    non_2xx: non2xx,
    errors,
  };
}

/**
 * One POST on `agent`'s kept-alive sockets, answered with its status and
 * body. node:http, not fetch: the bench shares the cores with the stack,
 * and fetch cost it about twice the CPU a request (docs/PERFORMANCE.md, "A
 * lighter sender for posted notices"). Rejects only when the request fails.
 */
export function httpPost(agent: Agent, target: URL, headers: Record<string, string>, body: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(target, { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
