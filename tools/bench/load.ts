import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { dueCount, dueOffsetMs, summarizeLatencies } from './latency-summary';
import { successRate } from './success-counts';

export interface LoadResult {
  /** Answers received (any status): what the CPU figures are divided by. */
  requests: number;
  /** 2xx answers a second: non-2xx answers and errors are left out (success-counts.ts). */
  requests_per_second: number;
  p50_ms: number;
  p99_ms: number;
  /** The slowest answer (paced loads only). */
  max_ms?: number;
  non_2xx: number;
  errors: number;
  /** Paced loads only: the same latencies timed from each request's actual send, as before their due time was used. */
  from_send?: PacedFromSend;
}

/**
 * A paced load's latencies from when each request was actually sent, beside the headline ones from when it was
 * due: comparable with reports from before the due time was used, and their difference is how late the
 * bench's own process sent (it shares the cores with the stack).
 */
export interface PacedFromSend {
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  /** How late the latest request was sent, after its due time. */
  latest_send_ms: number;
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
    // autocannon's average counts every answer, whatever its status.
    requests_per_second: successRate(result.requests.average, result['2xx'], result.requests.total),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    non_2xx: result.non2xx,
    errors: result.errors,
  };
}

/**
 * POSTs at a steady rate, evenly spaced (open loop: a slow answer does not
 * delay the next request), and times each from when it was due to its full
 * answer (latency-summary.ts: a send the bench itself delayed counts), and
 * from its actual send too (`from_send`). For latency at a given load:
 * autocannon's rate limit sends each second's requests in one burst, which
 * measures queueing at full load instead.
 */
export async function pacedLoad(options: LoadOptions & { rate: number }): Promise<LoadResult> {
  const target = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const fromDue: number[] = [];
  const fromSend: number[] = [];
  let latestSend = 0;
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  const inFlight = new Set<Promise<void>>();
  const begun = performance.now();
  const send = async (index: number): Promise<void> => {
    const due = begun + dueOffsetMs(index, options.rate);
    const body = JSON.stringify(options.body());
    const headers = { 'content-type': 'application/json', 'idempotency-key': randomUUID(), ...options.headers };
    const started = performance.now();
    latestSend = Math.max(latestSend, started - due);
    try {
      const { status } = await httpPost(agent, target, headers, body);
      const answered = performance.now();
      fromDue.push(answered - due);
      fromSend.push(answered - started);
      if (status >= 200 && status < 300) ok++;
      else non2xx++;
    } catch {
      errors++;
    }
  };
  const total = Math.round(options.rate * options.seconds);
  for (let sent = 0; sent < total; ) {
    const due = dueCount(performance.now() - begun, options.rate, total);
    for (; sent < due; sent++) {
      const pending = send(sent).finally(() => inFlight.delete(pending));
      inFlight.add(pending);
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(inFlight);
  agent.destroy();
  const headline = summarizeLatencies(fromDue);
  return {
    requests: fromDue.length,
    requests_per_second: Math.round(ok / ((performance.now() - begun) / 1000)),
    ...headline,
    non_2xx: non2xx,
    errors,
    from_send: { ...summarizeLatencies(fromSend), latest_send_ms: Math.round(latestSend) },
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
