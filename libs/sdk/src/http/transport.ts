import { randomUUID } from 'node:crypto';
import { AbortedError, ApiError, apiErrorFor, ConnectionError, NotFoundError, UnexpectedResponseError } from '../errors';
import { delay, type Operation, startOperation } from './abort';
import { isApiKeyShaped, isTestKey } from './api-key-shape';
import { keyInClearRefusal } from './key-in-clear';
import { failedBeforeSending } from './network-failure';
import { checkedRetrySettings, checkIdempotencyKey, checkRequestId, checkRetryCount, checkTimeout } from './option-checks';
import { type AttemptOutcome, DEFAULT_RETRY_SETTINGS, mayHaveRun, type RetrySettings, retryDelay } from './retry.policy';

export const DEFAULT_API_BASE = 'http://localhost:3000';
export const DEFAULT_TIMEOUT_MS = 30_000;
/**
 * An event stream that sends nothing for this long is dead (a connection
 * dropped without a FIN: a laptop's network change, a NAT that forgot it):
 * the gateway sends a comment every 15 s on a quiet stream, so this is three
 * missed in a row.
 */
export const STREAM_IDLE_TIMEOUT_MS = 45_000;
export const SDK_VERSION = '0.3.0';
/**
 * The most of an answer's body the SDK reads (4 MiB): every answer of the API is far smaller (a list page holds at
 * most 50 items), and a body read whole without a limit (a misdirected download, a proxy gone wrong) would fill the
 * caller's memory. A longer one is an UnexpectedResponseError. Event streams are read chunk by chunk, without it.
 */
export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

export interface ClientOptions {
  /** Secret key: pp_live_… or pp_live_test_… (the key chooses live or test mode). */
  apiKey: string;
  /**
   * The gateway. Required with a live or restricted key (pp_live_…, pp_rk_…); a test key (pp_live_test_…) defaults
   * to http://localhost:3000, a gateway run on this machine for development.
   */
  apiBase?: string;
  /** Per attempt; default 30 s. */
  timeoutMs?: number;
  /** Retries after the first attempt; default 3. 0 turns retrying off. */
  maxRetries?: number;
  /** Fine-tuning of the backoff (mainly for tests). */
  retry?: Partial<RetrySettings>;
  /**
   * Lets `apiBase` be plain http to another machine (a private network on purpose). Without it the client refuses
   * such a base: the secret key would cross the network readable. http to this machine is always allowed.
   */
  allowInsecureHttp?: boolean;
}

export interface RequestOptions {
  /**
   * POST only: your key for this operation; default a fresh UUID, reused across the SDK's retries. Pass your own
   * (and keep it) to call again safely after an error: an error from a POST carries the key it sent as `idempotencyKey`.
   */
  idempotencyKey?: string;
  /**
   * Sent as X-Request-Id on every attempt of this call; default a fresh UUID, so the gateway's logs tie the retries
   * together. 1 to 128 ASCII letters, digits and `._:-`, starting with a letter or digit (REQUEST_ID_PATTERN, the ids
   * the gateway keeps), else a TypeError before any request.
   */
  requestId?: string;
  /** Overrides the client's per-attempt timeout (for a stream: the wait for its headers). */
  timeoutMs?: number;
  /** Overrides the client's retry count. */
  maxRetries?: number;
  /** Stops the call: it rejects with an AbortedError whose `cause` is the signal's reason. */
  signal?: AbortSignal;
}

export interface ApiRequest {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /**
   * For a DELETE: the answer when a retry finds the resource gone (404)
   * after an attempt that may have run (mayHaveRun: no answer, a server error
   * from the gateway itself, a proxy's 504): that attempt deleted it and its
   * answer was lost on the way back, so the call did what it was asked. A 404
   * after none did (the first attempt, one refused with 429, a proxy's own
   * 502 or 503, a connection that could not be made) stays an error: the id
   * named nothing.
   */
  answerIfGoneOnRetry?: unknown;
}

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  body: T;
  /** The gateway's X-Request-Id; else (an answer without one, from something in between) the one the SDK sent. */
  requestId: string | undefined;
}

/** An open event stream: read `body`, and `close()` once done with it, however it ended. */
export interface OpenStream {
  response: Response;
  /** The gateway's X-Request-Id, else the one the SDK sent. */
  requestId: string;
  /** The body's chunks; a ConnectionError once nothing came for STREAM_IDLE_TIMEOUT_MS or the connection failed, an AbortedError once the caller's signal fired. */
  body: AsyncIterable<Uint8Array>;
  close(): void;
}

/** HTTP to the gateway: auth, idempotency keys, timeouts, retries, typed errors. Node's global fetch only. */
export class Transport {
  readonly apiBase: string;
  /**
   * Without the line break a key read from a file (a mounted secret) ends with, as fetch itself would send it. A
   * #private field: a client logged, inspected or serialised (an error reporter's capture) does not show the key.
   */
  readonly #apiKey: string;
  private readonly retry: RetrySettings;
  private readonly timeoutMs: number;

  constructor(options: ClientOptions) {
    if (!options.apiKey) throw new TypeError('apiKey is required (pp_live_… or pp_live_test_…)');
    this.#apiKey = options.apiKey.trim();
    if (!isApiKeyShaped(this.#apiKey)) {
      throw new TypeError('apiKey is not an API key: keys are pp_ then letters, digits and underscores (was a space or a line break copied into it?)');
    }
    if (this.#apiKey.startsWith('pp_pub_')) {
      throw new TypeError('apiKey is a publishable key (pp_pub_…), which only the browser checkout script uses: the API takes a secret key (pp_live_… or pp_live_test_…)');
    }
    // An empty apiBase (`apiBase: process.env.PP_API_BASE` with PP_API_BASE=) is none, as the CLI takes it.
    const apiBase = options.apiBase || undefined;
    if (apiBase === undefined && !isTestKey(this.#apiKey)) {
      // The default is a developer's own gateway, over plain http: a key that moves money would go, readable, to
      // whatever listens on that port of the machine the code was deployed to.
      throw new TypeError(`apiBase is required with a live or restricted key (pp_live_…, pp_rk_…): pass the gateway's https address; only a test key (pp_live_test_…) defaults to ${DEFAULT_API_BASE}`);
    }
    this.apiBase = (apiBase ?? DEFAULT_API_BASE).replace(/\/+$/, '');
    const refusal = keyInClearRefusal(this.apiBase, options.allowInsecureHttp === true, 'pass allowInsecureHttp: true');
    if (refusal) throw new TypeError(refusal);
    this.timeoutMs = checkTimeout('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const maxRetries = options.maxRetries === undefined ? undefined : checkRetryCount('maxRetries', options.maxRetries);
    this.retry = checkedRetrySettings(DEFAULT_RETRY_SETTINGS, { ...options.retry, maxRetries: maxRetries ?? options.retry?.maxRetries }, 'retry.');
  }

  async request<T>(request: ApiRequest, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    if (options.timeoutMs !== undefined) checkTimeout('timeoutMs', options.timeoutMs);
    if (options.idempotencyKey !== undefined) checkIdempotencyKey(options.idempotencyKey);
    if (options.requestId !== undefined) checkRequestId(options.requestId);
    const settings = { ...this.retry, ...(options.maxRetries === undefined ? {} : { maxRetries: checkRetryCount('maxRetries', options.maxRetries) }) };
    const url = new URL(this.apiBase + request.path);
    for (const [name, value] of Object.entries(request.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.#apiKey}`,
      accept: 'application/json',
      'user-agent': `interac-checkout-node/${SDK_VERSION} node/${process.versions.node}`,
    };
    headers['x-request-id'] = options.requestId ?? randomUUID();
    let body: string | undefined;
    if (request.method === 'POST') {
      // One key for the whole operation, so a retry after a lost answer replays instead of repeating it.
      headers['idempotency-key'] = options.idempotencyKey ?? randomUUID();
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.body ?? {});
    }
    // Whether an earlier attempt may have done the work (mayHaveRun): only then does a 404 mean "already done".
    let ranBefore = false;
    for (let retry = 1; ; retry++) {
      const attempt = await this.attempt(url, request.method, headers, body, options);
      if (attempt.ok) return attempt.response as ApiResponse<T>;
      if (ranBefore && attempt.error instanceof NotFoundError && request.answerIfGoneOnRetry !== undefined) {
        return { status: 404, headers: attempt.error.headers, body: request.answerIfGoneOnRetry as T, requestId: attempt.error.requestId };
      }
      ranBefore ||= mayHaveRun(attempt.outcome);
      const wait = retryDelay(attempt.outcome, retry, settings, Math.random(), Date.now());
      if (wait === undefined) throw attempt.error;
      if (!(await delay(wait, options.signal))) throw abortedError(request.method, url, options.signal?.reason, headers['idempotency-key'], headers['x-request-id']);
    }
  }

  /**
   * A long-lived GET (an event stream): the per-attempt timeout covers the
   * wait for the answer's headers, then each wait for the next chunk is
   * limited to STREAM_IDLE_TIMEOUT_MS; no retries (the caller resumes). The
   * caller's signal aborts the stream until `close()`.
   */
  async open(path: string, query: Record<string, string | undefined>, headers: Record<string, string>, options: RequestOptions = {}): Promise<OpenStream> {
    const url = new URL(this.apiBase + path);
    for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
    const sentId = options.requestId === undefined ? randomUUID() : checkRequestId(options.requestId);
    let requestId = sentId;
    const operation = startOperation(options.signal, checkTimeout('timeoutMs', options.timeoutMs ?? this.timeoutMs));
    try {
      const response = await fetch(url, {
        headers: { ...headers, authorization: `Bearer ${this.#apiKey}`, accept: 'text/event-stream', 'x-request-id': sentId },
        signal: operation.signal,
        redirect: 'manual',
      });
      requestId = response.headers.get('x-request-id') ?? sentId;
      if (isRedirect(response.status)) {
        await discardBody(response);
        throw redirectError('GET', url, response.status, undefined, requestId);
      }
      if (!response.ok) {
        const text = await readCapped(response, MAX_RESPONSE_BYTES);
        if (text === TOO_LARGE) throw tooLargeError('GET', url, response.status, undefined, requestId);
        const parsed = parseJson(text);
        const message = isErrorBody(parsed) ? parsed.error : `GET ${url.pathname} answered ${response.status}`;
        throw apiErrorFor(response.status, message, requestId, response.headers);
      }
      // The gateway's stream is text/event-stream: anything else (a proxy's or a captive portal's 200 page) would be
      // read as a stream that holds no event and ends, and a follower would connect again for ever, seeing nothing.
      if (!isEventStream(response.headers.get('content-type'))) {
        await discardBody(response);
        throw new UnexpectedResponseError(
          `GET ${url.pathname} answered ${response.status} with ${response.headers.get('content-type') ?? 'no Content-Type'}, not an event stream (text/event-stream) (request ${requestId})`,
          undefined,
          requestId,
        );
      }
      const streamId = requestId;
      // However the body's read fails, a CheckoutError with the stream's request id: silence, the caller's signal, or
      // the connection itself (a reset, a proxy cutting it) as a ConnectionError whose cause is fetch's error.
      const ended = (cause: unknown) =>
        operation.timedOut
          ? new ConnectionError(`GET ${url.pathname}: the stream sent nothing for ${STREAM_IDLE_TIMEOUT_MS} ms, not even the gateway's keep-alive (request ${streamId})`, cause, undefined, streamId)
          : options.signal?.aborted
            ? abortedError('GET', url, options.signal.reason, undefined, streamId)
            : new ConnectionError(`GET ${url.pathname}: the stream broke off: ${describeNetworkError(cause)} (request ${streamId})`, cause, undefined, streamId);
      // Paused until the body is read: the idle limit starts with the first wait for a chunk.
      operation.clearTimeout();
      return { response, requestId, body: chunksUntilSilent(response.body, operation, ended), close: operation.end };
    } catch (error) {
      operation.end();
      if (options.signal?.aborted) throw abortedError('GET', url, options.signal.reason, undefined, requestId);
      if (error instanceof ApiError || error instanceof UnexpectedResponseError) throw error;
      throw new ConnectionError(`GET ${url.pathname}: ${describeNetworkError(error)} (request ${requestId})`, error, undefined, requestId);
    }
  }

  private async attempt(
    url: URL,
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    options: RequestOptions,
  ): Promise<{ ok: true; response: ApiResponse<unknown> } | { ok: false; outcome: AttemptOutcome; error: Error }> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const sentId = headers['x-request-id'];
    const idempotencyKey = headers['idempotency-key'];
    // The deadline covers reading the body too.
    const operation = startOperation(options.signal, timeoutMs);
    let response: Response;
    let text: string | typeof TOO_LARGE;
    try {
      // Not followed: the gateway never redirects, so a 3xx is something else answering (an http-to-https redirect,
      // a login page), and following it would send the request, a POST's body, somewhere the caller did not name.
      response = await fetch(url, { method, headers, body, signal: operation.signal, redirect: 'manual' });
      text = isRedirect(response.status) ? await discardBody(response) : await readCapped(response, MAX_RESPONSE_BYTES);
    } catch (error) {
      if (options.signal?.aborted) throw abortedError(method, url, options.signal.reason, idempotencyKey, sentId);
      const reason = operation.timedOut ? `no answer within ${timeoutMs} ms` : describeNetworkError(error);
      const message = `${method} ${url.pathname}: ${reason} (request ${sentId})`;
      return { ok: false, outcome: { kind: 'network', unsent: failedBeforeSending(error) }, error: new ConnectionError(message, error, idempotencyKey, sentId) };
    } finally {
      operation.end();
    }
    // A proxy's own error page (a 502 or 504) carries no X-Request-Id: the one sent still finds the request in the gateway's logs, if it got there.
    const gatewayId = response.headers.get('x-request-id') ?? undefined;
    const requestId = gatewayId ?? sentId;
    if (isRedirect(response.status)) throw redirectError(method, url, response.status, idempotencyKey, requestId);
    if (text === TOO_LARGE) throw tooLargeError(method, url, response.status, idempotencyKey, requestId);
    const parsed = parseJson(text);
    if (response.ok) {
      // Every route answers JSON: anything else (a proxy's HTML page, say) would reach the caller as a string typed as the resource.
      if (parsed === NOT_JSON) {
        throw new UnexpectedResponseError(`${method} ${url.pathname} answered ${response.status} with a body that is not JSON (request ${requestId})`, idempotencyKey, requestId);
      }
      // Nor does any answer with nothing (a proxy's bare 200): it would reach the caller as undefined typed as the
      // resource. A 204 says there is no content on purpose; no route the SDK calls answers one.
      if (parsed === undefined && response.status !== 204) {
        throw new UnexpectedResponseError(`${method} ${url.pathname} answered ${response.status} with an empty body, where the API answers JSON (request ${requestId})`, idempotencyKey, requestId);
      }
      return { ok: true, response: { status: response.status, headers: response.headers, body: parsed, requestId } };
    }
    const message = isErrorBody(parsed) ? parsed.error : `${method} ${url.pathname} answered ${response.status}`;
    return {
      ok: false,
      outcome: { kind: 'response', status: response.status, retryAfter: response.headers.get('retry-after'), fromGateway: gatewayId !== undefined },
      error: apiErrorFor(response.status, message, requestId, response.headers, idempotencyKey),
    };
  }
}

/**
 * The stream's chunks, the idle limit running only while the next one is
 * awaited (the reader's own time handling a chunk is not the stream's
 * silence). When it passes, or the caller aborts, the operation aborts the
 * connection, and the read that fails with it is reported as `ended` says.
 */
async function* chunksUntilSilent(body: AsyncIterable<Uint8Array> | null, operation: Operation, ended: (cause: unknown) => unknown): AsyncGenerator<Uint8Array> {
  if (!body) return;
  try {
    operation.restartTimeout(STREAM_IDLE_TIMEOUT_MS);
    for await (const chunk of body) {
      operation.clearTimeout();
      yield chunk;
      operation.restartTimeout(STREAM_IDLE_TIMEOUT_MS);
    }
  } catch (error) {
    throw ended(error);
  }
}

const NOT_JSON = Symbol('not JSON');
const TOO_LARGE = Symbol('too large');

const isRedirect = (status: number) => status >= 300 && status < 400;

/** The media type, whatever its parameters (`; charset=utf-8`) and case. */
const isEventStream = (contentType: string | null) => contentType?.split(';')[0].trim().toLowerCase() === 'text/event-stream';

const redirectError = (method: string, url: URL, status: number, idempotencyKey: string | undefined, requestId: string) =>
  new UnexpectedResponseError(
    `${method} ${url.pathname} answered ${status}, a redirect, which the SDK does not follow (the gateway never redirects: is apiBase its own https address?) (request ${requestId})`,
    idempotencyKey,
    requestId,
  );

/** The caller's reason as the cause, wrapped so that a POST's error still carries the key it sent. */
const abortedError = (method: string, url: URL, reason: unknown, idempotencyKey: string | undefined, requestId: string) =>
  new AbortedError(`${method} ${url.pathname}: stopped by the caller's signal (${describeNetworkError(reason)}) (request ${requestId})`, reason, idempotencyKey, requestId);

const tooLargeError = (method: string, url: URL, status: number, idempotencyKey: string | undefined, requestId: string) =>
  new UnexpectedResponseError(`${method} ${url.pathname} answered ${status} with a body over ${MAX_RESPONSE_BYTES} bytes, more than any answer of the API (request ${requestId})`, idempotencyKey, requestId);

/** Lets the connection go without reading an answer the SDK will not use; '' as its text. */
async function discardBody(response: Response): Promise<string> {
  await response.body?.cancel().catch(() => undefined);
  return '';
}

/** The body as text, read up to `limit` bytes: TOO_LARGE (and the rest left unread) beyond it. */
async function readCapped(response: Response, limit: number): Promise<string | typeof TOO_LARGE> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > limit) {
    await discardBody(response);
    return TOO_LARGE;
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return TOO_LARGE;
    }
    chunks.push(value);
  }
  // As response.text() decodes: UTF-8, a byte order mark dropped, malformed sequences replaced.
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** The body, undefined when empty, NOT_JSON when unreadable (an error status's body may be any text). */
function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

const isErrorBody = (value: unknown): value is { error: string } =>
  typeof value === 'object' && value !== null && typeof (value as { error?: unknown }).error === 'string';

/** fetch's "fetch failed" plus the reason under it (ECONNREFUSED, socket hang up ...). Errors may come from another realm, so no instanceof. */
function describeNetworkError(error: unknown): string {
  const message = (value: unknown) => (typeof (value as { message?: unknown } | null)?.message === 'string' ? (value as { message: string }).message : String(value));
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause === undefined ? message(error) : `${message(error)} (${message(cause)})`;
}
