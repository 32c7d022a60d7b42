import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { dueCount, dueOffsetMs, summarizeLatencies } from './latency-summary';
import { successRate } from './success-counts';

export interface LoadResult {
  /** Answers received (any status): what the CPU figures are divided by (a request that failed or timed out is none). */
  requests: number;
  /**
   * 2xx answers a second: non-2xx answers and errors are left out (success-counts.ts). Paced loads: over the time
   * from the first request until every one had ended, less a tail spent only waiting for requests that timed out.
   */
  requests_per_second: number;
  /** Of the 2xx answers only, as autocannon times them (a paced request that timed out counts too, as at least its deadline). */
  p50_ms: number;
  p99_ms: number;
  /** The slowest answer (paced loads only). */
  max_ms?: number;
  non_2xx: number;
  /** Requests that got no answer: failed, or timed out (autocannon's own timeout; HTTP_TIMEOUT_MS for paced loads). */
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
  /** Paced loads: how long a request may take before it counts as an error (HTTP_TIMEOUT_MS when not given). */
  timeoutMs?: number;
}

/** A paced request's deadline, as autocannon's default one (10 s): a request never answered ends the load anyway. */
export const HTTP_TIMEOUT_MS = 10_000;

/** httpPost's rejection when no whole answer came within its deadline (any other rejection is a failed request). */
export class HttpTimeoutError extends Error {}

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
 * from its actual send too (`from_send`); 2xx answers only, as autocannon
 * times its rows (any other answer is counted in `non_2xx`, untimed: it can
 * be a quick refusal, not the path measured). For latency at a given load:
 * autocannon's rate limit sends each second's requests in one burst, which
 * measures queueing at full load instead. A request that fails or gets no
 * answer within its deadline (`timeoutMs`) is counted in `errors`. One that
 * timed out also counts in the latencies, as at least the deadline, so a
 * stuck request weighs on the p99 and max instead of dropping out of them;
 * one that failed otherwise (a refused or reset connection: no wait of a
 * client's) does not, as before deadlines, or a fast failure would lower
 * them. The rate is over the time from the first request until every one
 * had ended, as before, but not the tail spent only waiting for requests
 * that timed out: a stuck request does not stretch it by its deadline.
 */
export async function pacedLoad(options: LoadOptions & { rate: number }): Promise<LoadResult> {
  const target = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const timeoutMs = options.timeoutMs ?? HTTP_TIMEOUT_MS;
  const fromDue: number[] = [];
  const fromSend: number[] = [];
  let latestSend = 0;
  /** When the last request was sent, and when the last one that did not time out ended: the rate's interval ends at the later. */
  let lastSent = 0;
  let lastEnded = 0;
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
    lastSent = Math.max(lastSent, started);
    let status: number;
    try {
      ({ status } = await httpPost(agent, target, headers, body, timeoutMs));
    } catch (error) {
      errors++;
      if (error instanceof HttpTimeoutError) {
        // Its timer ran from after `started`: at least the deadline, whatever the clocks' rounding.
        const waited = Math.max(performance.now() - started, timeoutMs);
        fromDue.push(started - due + waited);
        fromSend.push(waited);
      } else {
        lastEnded = Math.max(lastEnded, performance.now());
      }
      return;
    }
    const answered = performance.now();
    lastEnded = Math.max(lastEnded, answered);
    // Timed as autocannon times its rows, 2xx only: a gateway shedding load with quick 429s or 5xx would pull the p99 down.
    if (status < 200 || status >= 300) {
      non2xx++;
      return;
    }
    ok++;
    fromDue.push(answered - due);
    fromSend.push(answered - started);
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
  // Bounded: each request ends by its deadline.
  await Promise.all(inFlight);
  agent.destroy();
  const headline = summarizeLatencies(fromDue);
  const interval = Math.max(lastSent, lastEnded) - begun;
  return {
    requests: ok + non2xx,
    requests_per_second: interval > 0 ? Math.round(ok / (interval / 1000)) : 0,
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
 * lighter sender for posted notices"). Rejects when the request fails, or
 * with an HttpTimeoutError when its whole answer has not arrived `timeoutMs`
 * after it was sent (the request is then destroyed, its socket with it).
 */
export function httpPost(
  agent: Agent,
  target: URL,
  headers: Record<string, string>,
  body: string,
  timeoutMs = HTTP_TIMEOUT_MS,
): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(target, { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        clearTimeout(deadline);
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) });
      });
      res.on('error', fail);
    });
    let timedOut: HttpTimeoutError | undefined;
    // Whichever error the destroyed request or its answer reports, a request past its deadline rejects as timed out.
    function fail(error: Error): void {
      clearTimeout(deadline);
      reject(timedOut ?? error);
    }
    const deadline = setTimeout(() => {
      timedOut = new HttpTimeoutError(`POST ${target.pathname}: no answer within ${timeoutMs} ms`);
      req.destroy(timedOut);
    }, timeoutMs);
    req.on('error', fail);
    req.end(body);
  });
}
