import { MAX_IDEMPOTENCY_KEY_LENGTH, REQUEST_ID_PATTERN } from '../api-rules';
import type { RetrySettings } from './retry.policy';

/*
 * The options a client is given, checked before any request. Unchecked, a
 * typo fails silently: `retry > NaN` is never true, so NaN or Infinity
 * retries forever; a timer given NaN, a negative number or more than
 * 2^31-1 ms fires at once (Node makes it 1 ms), so every request times out
 * or every retry comes at once.
 */

const MAX_TIMER_MS = 2 ** 31 - 1;

export function checkMilliseconds(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_TIMER_MS) {
    throw new TypeError(`${name} must be a number of milliseconds from 0 to ${MAX_TIMER_MS}, not ${String(value)}`);
  }
  return value;
}

/** A timeout: whole milliseconds, at least 1 (0 would time every attempt out at once). */
export function checkTimeout(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_TIMER_MS) {
    throw new TypeError(`${name} must be a whole number of milliseconds from 1 to ${MAX_TIMER_MS}, not ${String(value)}`);
  }
  return value;
}

/**
 * An Idempotency-Key the caller chose: an empty one would reach the gateway
 * as no key at all (refused with a 400), a blank or over-long one likewise,
 * and a control character would make fetch throw an error quoting it.
 */
export function checkIdempotencyKey(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_IDEMPOTENCY_KEY_LENGTH || !/^[\x20-\x7e]+$/.test(value)) {
    throw new TypeError(`idempotencyKey must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters, not all spaces`);
  }
  return value;
}

/**
 * A request id the caller chose: one fetch cannot send (a line break) would fail every attempt as a network error,
 * retried, and one the gateway would not keep would be missing from its logs.
 */
export function checkRequestId(value: unknown): string {
  if (typeof value !== 'string' || !REQUEST_ID_PATTERN.test(value)) {
    throw new TypeError('requestId must be 1 to 128 ASCII letters, digits and . _ : -, starting with a letter or digit');
  }
  return value;
}

export function checkRetryCount(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new TypeError(`${name} must be a whole number from 0, not ${String(value)}`);
  return value;
}

/** `base` with the overrides given (an undefined one is left out), each field checked; `where` prefixes the names in errors. */
export function checkedRetrySettings(base: RetrySettings, overrides: Partial<RetrySettings>, where: string): RetrySettings {
  const value = (name: keyof RetrySettings) => (overrides[name] === undefined ? base[name] : overrides[name]);
  return {
    maxRetries: checkRetryCount(`${where}maxRetries`, value('maxRetries')),
    baseDelayMs: checkMilliseconds(`${where}baseDelayMs`, value('baseDelayMs')),
    maxDelayMs: checkMilliseconds(`${where}maxDelayMs`, value('maxDelayMs')),
    maxRetryAfterMs: checkMilliseconds(`${where}maxRetryAfterMs`, value('maxRetryAfterMs')),
  };
}
