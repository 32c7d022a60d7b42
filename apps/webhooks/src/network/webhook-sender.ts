import http from 'node:http';
import https from 'node:https';
import { isIP, type Socket } from 'node:net';
import { withinDeadline } from '@pp/kernel';
import { BlockedAddressError, resolveDeliveryAddress } from './address-guard';

export const USER_AGENT = 'pp-webhooks/1 (Interac checkout service)';

export interface WebhookRequest {
  url: string;
  /** The exact bytes that were signed. */
  body: Buffer;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivate: boolean;
  /** The connection pools to use: the process's shared ones (DELIVERY_AGENTS) unless a spec brings its own. */
  agents?: WebhookAgents;
}

/** What one attempt produced: an HTTP status, or an error before any status arrived. */
export interface WebhookResponse {
  httpStatus: number | null;
  /** Retry-After of a 429 or 503, in milliseconds. */
  retryAfterMs: number | null;
  latencyMs: number;
  error: string | null;
  /** Why the host was refused, when it was: for the server's log, never the attempt's (error says only that it is not public). */
  refusal?: string;
}

/** An idle pooled connection to a merchant's server is closed after this long (a server's hint of a shorter keep-alive wins). */
export const IDLE_SOCKET_TIMEOUT_MS = 5_000;
/**
 * Idle connections kept per pool, i.e. per endpoint address, port and TLS
 * name: as many as a pool may open, so a burst to one endpoint reuses its
 * connections (16 cost the fan-out a fifth of its rate and of the webhooks'
 * CPU a delivery: docs/PERFORMANCE.md); the idle timeout and
 * MAX_TOTAL_SOCKETS bound what they hold.
 */
export const MAX_FREE_SOCKETS_PER_POOL = 256;
/** Connections open at once per pool. */
export const MAX_SOCKETS_PER_POOL = 256;
/**
 * Connections one agent (http, https) holds over all its pools, busy and
 * idle: above the largest WEBHOOK_DELIVERY_CONCURRENCY (1000), which bounds
 * a replica's attempts in flight, made at once or from the queue alike
 * (AttemptPlaces), so busy ones never reach it; when idle ones have, one is
 * closed to make room (makeRoom), so an attempt never waits for a
 * connection nobody uses.
 */
export const MAX_TOTAL_SOCKETS = 1024;

export interface WebhookAgents {
  'http:': http.Agent;
  'https:': https.Agent;
}

/**
 * Keep-alive agents for delivery attempts, with their bounds (defaults
 * above). `tls` adds TLS options to the https agent (a spec's trusted
 * certificate authority).
 */
export function webhookAgents(bounds: { idleTimeoutMs?: number; maxTotalSockets?: number; tls?: https.AgentOptions } = {}): WebhookAgents {
  const options: http.AgentOptions = {
    keepAlive: true,
    timeout: bounds.idleTimeoutMs ?? IDLE_SOCKET_TIMEOUT_MS,
    maxSockets: MAX_SOCKETS_PER_POOL,
    maxFreeSockets: MAX_FREE_SOCKETS_PER_POOL,
    maxTotalSockets: bounds.maxTotalSockets ?? MAX_TOTAL_SOCKETS,
  };
  return { 'http:': new http.Agent(options), 'https:': new https.Agent({ ...options, ...bounds.tls }) };
}

// Connections are pooled per pinned address, port and TLS name, so a reused socket always goes to an address that was checked.
export const DELIVERY_AGENTS: WebhookAgents = webhookAgents();

/**
 * At most this much of an answer's body is read (and thrown away) so a
 * well-behaved endpoint's keep-alive socket can be reused; a longer body
 * closes the connection instead.
 */
export const MAX_RESPONSE_BODY_BYTES = 64 * 1024;

/**
 * POSTs one delivery. The host is resolved and checked here, at delivery time
 * (DNS may have changed since registration), and the connection goes to the
 * checked address while Host and TLS still use the URL's name. Redirects are
 * not followed.
 *
 * The deadline covers the whole attempt, body included: the answer's body is
 * read up to MAX_RESPONSE_BODY_BYTES while time remains, and a body that is
 * longer or still trickling at the deadline gets its connection destroyed, so
 * a slow endpoint can never hold a socket open. The status line is the
 * endpoint's answer: a 2xx whose body stalls is still a success (the
 * receiver accepted the event; sending it again would duplicate it), with a
 * note in the attempt's error.
 */
export async function sendWebhook(request: WebhookRequest): Promise<WebhookResponse> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const url = new URL(request.url);
  let address: string;
  try {
    // The lookup is part of the attempt: a resolver that hangs must not hold it past its deadline (and its lease).
    const resolving = resolveDeliveryAddress(url.hostname, request.allowPrivate);
    address = (await withinDeadline(resolving, request.timeoutMs, () => new LookupTimedOut(`the host did not resolve within ${request.timeoutMs} ms`))).address;
  } catch (error) {
    const reason = error instanceof BlockedAddressError || error instanceof LookupTimedOut ? error.message : 'the host could not be checked';
    const refused = { httpStatus: null, retryAfterMs: null, latencyMs: elapsed(), error: `not sent: ${reason}` };
    return error instanceof BlockedAddressError ? { ...refused, refusal: error.detail } : refused;
  }
  const secure = url.protocol === 'https:';
  const transport = secure ? https : http;
  const agent = (request.agents ?? DELIVERY_AGENTS)[secure ? 'https:' : 'http:'];
  const port = url.port || (secure ? 443 : 80);
  // The TLS name (SNI, and what the certificate is checked against) is the URL's host when it is a DNS name. An IP
  // literal is no TLS name (RFC 6066): none is sent, and the certificate is checked against the address itself.
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const servername = secure && isIP(host) === 0 ? host : undefined;
  await makeRoom(agent, poolName(agent, { host: address, port, servername: servername ?? '' }));
  // What the lookup left of the deadline is the request's.
  const remainingMs = Math.max(1, request.timeoutMs - elapsed());
  return new Promise<WebhookResponse>((resolve) => {
    let settled = false;
    /** Set once the status line has arrived: the attempt's outcome, whatever happens to the body. */
    let answer: Omit<WebhookResponse, 'latencyMs'> | undefined;
    const finish = (result: Omit<WebhookResponse, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, latencyMs: elapsed() });
    };
    /** Ends the attempt now and closes its connection (not returned to the pool). */
    const abandon = (why: string) => {
      finish(answer ? { ...answer, error: `${answer.error ?? `endpoint answered ${answer.httpStatus}`}; ${why}` } : { httpStatus: null, retryAfterMs: null, error: why });
      req.destroy();
    };
    const req = transport.request({
      method: 'POST',
      protocol: url.protocol,
      host: address,
      port,
      path: `${url.pathname}${url.search}`,
      // '' rather than leaving it out: Node would otherwise take the Host header's name (and an IP literal's too).
      servername: secure ? (servername ?? '') : undefined,
      agent,
      headers: {
        host: url.host,
        'content-type': 'application/json',
        'content-length': String(request.body.length),
        'user-agent': USER_AGENT,
        ...request.headers,
      },
    });
    const timer = setTimeout(
      () => abandon(answer ? `response body not finished within ${request.timeoutMs} ms, connection closed` : `timed out after ${request.timeoutMs} ms`),
      remainingMs,
    );
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      answer = {
        httpStatus: status,
        retryAfterMs: status === 429 || status === 503 ? parseRetryAfter(res.headers['retry-after']) : null,
        error: status >= 200 && status < 300 ? null : `endpoint answered ${status}${res.statusMessage ? ` ${res.statusMessage.slice(0, 100)}` : ''}`,
      };
      let received = 0;
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > MAX_RESPONSE_BODY_BYTES) abandon(`response body over ${MAX_RESPONSE_BODY_BYTES} bytes, connection closed`);
      });
      res.on('end', () => finish(answer!));
      res.on('error', () => abandon('response body cut off'));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (answer) return abandon('response body cut off');
      finish({ httpStatus: null, retryAfterMs: null, error: describeNetworkError(error, url.host) });
    });
    req.end(request.body);
  });
}

class LookupTimedOut extends Error {}

/** The pool a request goes to: Node names it from the request's options with the agent's own merged in (Agent.addRequest). */
const poolName = (agent: http.Agent, options: https.RequestOptions): string =>
  agent.getName({ ...options, ...(agent as unknown as { options: https.AgentOptions }).options });

/**
 * When the agent holds MAX_TOTAL_SOCKETS connections and none of them is an
 * idle one of `pool` (which the request would reuse), closes idle ones of
 * other pools until there is room: Node's agent would otherwise queue the
 * request until some connection closed, at worst an idle one at its timeout,
 * and the attempt would spend its deadline waiting.
 */
async function makeRoom(agent: http.Agent, pool: string): Promise<void> {
  const count = (sockets: NodeJS.ReadOnlyDict<Socket[]>) => Object.values(sockets).reduce((sum, list) => sum + (list?.length ?? 0), 0);
  while ((agent.freeSockets[pool]?.length ?? 0) === 0 && count(agent.sockets) + count(agent.freeSockets) >= agent.maxTotalSockets) {
    // From the pool with the most idle connections: the one that will miss one least.
    const idle = Object.values(agent.freeSockets).reduce<Socket[] | undefined>((most, list) => ((list?.length ?? 0) > (most?.length ?? 0) ? list : most), undefined)?.[0];
    if (!idle) return; // every connection is busy: the request waits for one, as Node's agent does
    await new Promise<void>((closed) => {
      idle.once('close', () => closed());
      idle.destroy();
    });
  }
}

/** Retry-After as seconds or an HTTP date (RFC 9110 §10.2.3), in milliseconds; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function describeNetworkError(error: NodeJS.ErrnoException, host: string): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return `connection refused by ${host}`;
    case 'ECONNRESET':
      return `connection reset by ${host}`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${host} is unreachable`;
    default:
      // Node's own message names the connected address, which the SSRF guard's messages never reveal.
      return error.code ? `${error.code} talking to ${host}` : `could not talk to ${host}`;
  }
}
