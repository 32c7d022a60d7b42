import http from 'node:http';
import https from 'node:https';
import { BlockedAddressError, resolveDeliveryAddress } from './address-guard';

export const USER_AGENT = 'pp-webhooks/1 (Interac checkout service)';

export interface WebhookRequest {
  url: string;
  /** The exact bytes that were signed. */
  body: Buffer;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivate: boolean;
}

/** What one attempt produced: an HTTP status, or an error before any status arrived. */
export interface WebhookResponse {
  httpStatus: number | null;
  /** Retry-After of a 429 or 503, in milliseconds. */
  retryAfterMs: number | null;
  latencyMs: number;
  error: string | null;
}

// Connections are pooled per pinned address and TLS name, so a reused socket always goes to an address that was checked.
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 256 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 256 }),
};

/**
 * POSTs one delivery. The host is resolved and checked here, at delivery time
 * (DNS may have changed since registration), and the connection goes to the
 * checked address while Host and TLS still use the URL's name. Redirects are
 * not followed; a status line is all that is awaited.
 */
export async function sendWebhook(request: WebhookRequest): Promise<WebhookResponse> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const url = new URL(request.url);
  let address: string;
  try {
    address = (await resolveDeliveryAddress(url.hostname, request.allowPrivate)).address;
  } catch (error) {
    const reason = error instanceof BlockedAddressError ? error.message : String(error);
    return { httpStatus: null, retryAfterMs: null, latencyMs: elapsed(), error: `not sent: ${reason}` };
  }
  const secure = url.protocol === 'https:';
  const transport = secure ? https : http;
  return new Promise<WebhookResponse>((resolve) => {
    let settled = false;
    const finish = (result: Omit<WebhookResponse, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, latencyMs: elapsed() });
    };
    const req = transport.request({
      method: 'POST',
      protocol: url.protocol,
      host: address,
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      servername: secure ? url.hostname : undefined,
      agent: agents[url.protocol as keyof typeof agents],
      headers: {
        host: url.host,
        'content-type': 'application/json',
        'content-length': String(request.body.length),
        'user-agent': USER_AGENT,
        ...request.headers,
      },
    });
    const timer = setTimeout(() => {
      finish({ httpStatus: null, retryAfterMs: null, error: `timed out after ${request.timeoutMs} ms` });
      req.destroy();
    }, request.timeoutMs);
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      // The answer's body is not needed; drain it so the socket can be reused.
      res.resume();
      finish({
        httpStatus: status,
        retryAfterMs: status === 429 || status === 503 ? parseRetryAfter(res.headers['retry-after']) : null,
        error: status >= 200 && status < 300 ? null : `endpoint answered ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''}`,
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      finish({ httpStatus: null, retryAfterMs: null, error: describeNetworkError(error, url.host) });
    });
    req.end(request.body);
  });
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
      return error.code ? `${error.code}: ${error.message}` : error.message;
  }
}
