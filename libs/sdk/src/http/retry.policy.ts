/*
 * When the SDK tries a request again, and after how long. Pure: the caller
 * passes the attempt's outcome and a random number.
 */

export interface RetrySettings {
  /** Attempts after the first. */
  maxRetries: number;
  /** Delay before the first retry; doubles on each further one. */
  baseDelayMs: number;
  /** No computed delay exceeds this (a Retry-After may, up to maxRetryAfterMs). */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error is returned instead. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_SETTINGS: RetrySettings = { maxRetries: 3, baseDelayMs: 250, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

export type AttemptOutcome =
  | {
      kind: 'network';
      /** The connection could not be made (failedBeforeSending): the request never left this machine. */
      unsent?: boolean;
    }
  | {
      kind: 'response';
      status: number;
      retryAfter: string | null;
      /** Whether the answer carried X-Request-Id: every answer of the gateway does, a proxy's own error page does not. */
      fromGateway: boolean;
    };

/**
 * Worth retrying: no answer (the request may or may not have run, which the
 * Idempotency-Key makes safe: every POST route records it, events.resend's
 * included), 409 "still in progress" (which alone carries Retry-After), 429
 * and 5xx. Every other 4xx would fail the same way again.
 */
export function isRetryable(outcome: AttemptOutcome): boolean {
  if (outcome.kind === 'network') return true;
  const { status, retryAfter } = outcome;
  return status === 429 || (status === 409 && retryAfter !== null) || status >= 500;
}

/**
 * Whether the failed attempt may have done its work: no answer (unless the
 * connection could not even be made: the request was never sent), or a
 * server error from the gateway itself (X-Request-Id: a deadline passed
 * after the service acted), or a 504 (a proxy that passed the request on and
 * gave up waiting for the answer, as the SDK's own timeout does). A proxy's
 * other 5xx without X-Request-Id (a 502 or 503: no gateway to pass it to) is
 * not: a 404 after it means the id named nothing. A 429 or a 409 was refused
 * before any work.
 */
export function mayHaveRun(outcome: AttemptOutcome): boolean {
  if (outcome.kind === 'network') return outcome.unsent !== true;
  return outcome.status >= 500 && (outcome.fromGateway || outcome.status === 504);
}

/** Seconds or an HTTP date, as milliseconds from `nowMs`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * The delay before retry number `retry` (1 for the first), or undefined to
 * stop. Exponential backoff with jitter (half fixed, half random), so many clients failing at once
 * do not come back in step; a server's Retry-After is a floor.
 */
export function retryDelay(outcome: AttemptOutcome, retry: number, settings: RetrySettings, random: number, nowMs: number): number | undefined {
  if (retry > settings.maxRetries || !isRetryable(outcome)) return undefined;
  const ceiling = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (retry - 1));
  const jittered = ceiling / 2 + (random * ceiling) / 2;
  const asked = outcome.kind === 'response' ? parseRetryAfter(outcome.retryAfter, nowMs) : undefined;
  if (asked === undefined) return Math.round(jittered);
  if (asked > settings.maxRetryAfterMs) return undefined;
  return Math.max(asked, Math.round(jittered));
}
