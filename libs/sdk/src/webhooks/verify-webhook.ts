import { timingSafeEqual } from 'node:crypto';
import { types } from 'node:util';
import { CheckoutError } from '../errors';
import type { WebhookEvent } from '../types';
import { bodySignature, parseSignatureV2, signatureHeaders, timestampedSignature, WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS, WebhookHeader } from './webhook-signature';

/** Why a delivery was refused; `message` says it in words. */
export type WebhookVerificationFailure =
  | 'not_raw_body'
  | 'no_secret'
  | 'missing_header'
  | 'timestamp_mismatch'
  | 'stale_timestamp'
  | 'signature_mismatch'
  | 'event_id_mismatch'
  | 'invalid_json';

export class WebhookVerificationError extends CheckoutError {
  override name = 'WebhookVerificationError';
  constructor(
    readonly reason: WebhookVerificationFailure,
    message: string,
  ) {
    super(message);
  }
}

/*
 * The V2 header is bounded before any body is hashed: the service sends one v1
 * value per valid secret (two during a rotation), and a sender's header of
 * thousands of values must not cost thousands of comparisons per secret.
 */
const MAX_V1_SIGNATURES = 8;
/** t= and eight v1 values of 64 hex digits come to under 600 characters; the rest is room for spaces. */
const MAX_SIGNATURE_V2_LENGTH = 1024;

/**
 * Node's req.headers or any name → value map (names in any case), or anything with a `get(name)` as fetch's Headers
 * has: a Headers of another realm or fetch implementation (undici's own, a polyfill's, an edge runtime's), which
 * `instanceof Headers` does not recognise.
 */
export type WebhookHeaders = Headers | HeadersLike | Record<string, string | string[] | undefined>;

/** What `verify` reads of a Headers-like object: one header by name, null or undefined when absent. */
export interface HeadersLike {
  get(name: string): string | string[] | null | undefined;
}

export interface VerifyOptions {
  /** How far the delivery's timestamp may be from now; default 300 s. */
  toleranceSeconds?: number;
  /** The receiver's clock, unix seconds (tests). */
  nowSeconds?: number;
}

/**
 * Checks a delivery on the bytes that arrived and returns its event:
 * X-Service-Signature-V2 (over event id, timestamp and body) must carry a
 * signature by one of `secrets`, with a timestamp within the tolerance, and
 * X-Service-Signature (over the body) must match one of them too, unless a
 * secret rotation is underway (two V2 signatures), when it is signed with
 * the new secret only. All comparisons are constant-time. Throws
 * WebhookVerificationError naming what failed.
 */
export function verify(rawBody: Buffer | Uint8Array | ArrayBuffer | string, headers: WebhookHeaders, secrets: string | readonly string[], options: VerifyOptions = {}): WebhookEvent {
  const body = rawBytes(rawBody);
  const trusted = (typeof secrets === 'string' ? [secrets] : [...secrets]).filter((secret) => typeof secret === 'string' && secret.length > 0);
  if (trusted.length === 0) throw new WebhookVerificationError('no_secret', 'No webhook secret given: pass the endpoint secret (whsec_…), or both during a rotation');
  const header = headerReader(headers);
  const eventId = required(header(WebhookHeader.EventId), WebhookHeader.EventId);
  const timestampHeader = required(header(WebhookHeader.Timestamp), WebhookHeader.Timestamp);
  const v2Header = required(header(WebhookHeader.SignatureV2), WebhookHeader.SignatureV2);
  const legacy = required(header(WebhookHeader.Signature), WebhookHeader.Signature);
  if (v2Header.length > MAX_SIGNATURE_V2_LENGTH) {
    throw new WebhookVerificationError('missing_header', `${WebhookHeader.SignatureV2} is ${v2Header.length} characters long; the service's is under ${MAX_SIGNATURE_V2_LENGTH}`);
  }
  const v2 = parseSignatureV2(v2Header);
  if (v2.timestamp === undefined || v2.signatures.length === 0) {
    throw new WebhookVerificationError('missing_header', `${WebhookHeader.SignatureV2} is malformed: expected t=<unix seconds>,v1=<hex>`);
  }
  if (v2.signatures.length > MAX_V1_SIGNATURES) {
    throw new WebhookVerificationError('missing_header', `${WebhookHeader.SignatureV2} carries ${v2.signatures.length} v1 signatures; the service sends one per valid secret, two during a rotation`);
  }
  if (String(v2.timestamp) !== timestampHeader.trim()) {
    throw new WebhookVerificationError('timestamp_mismatch', `${WebhookHeader.Timestamp} does not match the t= of ${WebhookHeader.SignatureV2}`);
  }
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS;
  // NaN would pass every comparison below and accept a replay of any age: an option read from an unset variable.
  if (!Number.isFinite(tolerance) || tolerance < 0) throw new RangeError(`webhooks.verify: toleranceSeconds must be a finite number ≥ 0, got ${tolerance}`);
  if (!Number.isFinite(now)) throw new RangeError(`webhooks.verify: nowSeconds must be a finite number, got ${now}`);
  if (Math.abs(now - v2.timestamp) > tolerance) {
    throw new WebhookVerificationError('stale_timestamp', `Timestamp ${v2.timestamp} is ${now - v2.timestamp} s from now, beyond the ${tolerance} s tolerance: a replay, or a wrong clock`);
  }
  const timestamp = v2.timestamp;
  const v2Valid = trusted
    .map((secret) => timestampedSignature(eventId, timestamp, body, secret))
    .some((expected) => v2.signatures.some((candidate) => hexEquals(expected, candidate)));
  if (!v2Valid) {
    throw new WebhookVerificationError('signature_mismatch', `${WebhookHeader.SignatureV2} matches none of the ${trusted.length} secret(s): wrong secret, or the body was changed (verify the raw bytes, not a re-serialised body)`);
  }
  const rotating = v2.signatures.length > 1;
  if (!rotating && !trusted.some((secret) => hexEquals(bodySignature(body, secret), legacy))) {
    throw new WebhookVerificationError('signature_mismatch', `${WebhookHeader.Signature} matches none of the secret(s)`);
  }
  const event = parseEvent(body);
  if (event.id !== eventId) throw new WebhookVerificationError('event_id_mismatch', `The body's id ${event.id} is not ${WebhookHeader.EventId} ${eventId}`);
  return event;
}

export interface SignedTestPayload {
  /** Send exactly these bytes. */
  body: string;
  headers: Record<string, string>;
}

/**
 * Signs an event the way the service does, for a merchant's own receiver
 * tests. `secrets` newest first (two to mimic a rotation).
 */
export function signTestPayload(event: WebhookEvent | Record<string, unknown> | string, secrets: string | readonly string[], options: { timestamp?: number; eventId?: string } = {}): SignedTestPayload {
  const body = typeof event === 'string' ? event : JSON.stringify(event);
  const parsed = typeof event === 'string' ? (JSON.parse(event) as { id?: unknown }) : event;
  const eventId = options.eventId ?? (typeof parsed.id === 'string' ? parsed.id : undefined);
  if (!eventId) throw new TypeError('signTestPayload needs an event with an id (or options.eventId)');
  const list = typeof secrets === 'string' ? [secrets] : [...secrets];
  if (list.length === 0) throw new TypeError('signTestPayload needs at least one secret');
  return { body, headers: signatureHeaders(eventId, Buffer.from(body), list, options.timestamp ?? Math.floor(Date.now() / 1000)) };
}

/** Constant-time comparison of two hex strings (false for different lengths or non-hex input). */
export function hexEquals(expectedHex: string, actualHex: string | undefined): boolean {
  if (!actualHex || !/^[0-9a-f]+$/.test(actualHex) || actualHex.length % 2 !== 0) return false;
  const expected = Buffer.from(expectedHex, 'hex');
  const actual = Buffer.from(actualHex, 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

function rawBytes(rawBody: unknown): Buffer {
  if (Buffer.isBuffer(rawBody)) return rawBody;
  // Checked by their tags, not instanceof, so bytes from another realm (a worker, a vm context) count too.
  if (types.isUint8Array(rawBody)) return Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  // fetch's `await request.arrayBuffer()`.
  if (types.isArrayBuffer(rawBody)) return Buffer.from(rawBody);
  if (typeof rawBody === 'string') return Buffer.from(rawBody, 'utf8');
  const what = rawBody === null ? 'null' : rawBody === undefined ? 'undefined' : 'a parsed object';
  throw new WebhookVerificationError(
    'not_raw_body',
    `webhooks.verify needs the raw request body (Buffer, Uint8Array, ArrayBuffer or string), got ${what}. A body parsed and serialised again is not the bytes that were signed: ` +
      "read the body raw (Express: express.raw({ type: 'application/json' }); Fastify: a content-type parser with parseAs: 'buffer'; fetch: await request.arrayBuffer() or request.text()).",
  );
}

/** The header's first value as it came, which a map built by hand may hold as anything: `required` checks it is text. */
function headerReader(headers: WebhookHeaders): (name: string) => unknown {
  if (isHeadersLike(headers)) {
    return (name) => {
      const value: unknown = headers.get(name);
      return Array.isArray(value) ? value[0] : value;
    };
  }
  const lower = new Map<string, unknown>(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  return (name) => {
    const value = lower.get(name);
    return Array.isArray(value) ? value[0] : value;
  };
}

/** Duck-typed: a `get` method, not only this realm's Headers. A header named "get" in a plain map is a string, not a function. */
const isHeadersLike = (headers: WebhookHeaders): headers is HeadersLike => typeof (headers as { get?: unknown } | null)?.get === 'function';

/**
 * The header's value, which must be text: one that is not (a number in a map of the receiver's own making) is refused
 * like a missing one, a WebhookVerificationError the receiver answers 400, not a TypeError thrown further on (a 500,
 * which the service would deliver again and again).
 */
function required(value: unknown, name: string): string {
  if (value === undefined || value === null || value === '') {
    throw new WebhookVerificationError('missing_header', `Header ${name} is missing: is this a webhook delivery, and does your framework pass headers through?`);
  }
  if (typeof value !== 'string') throw new WebhookVerificationError('missing_header', `Header ${name} is ${typeof value === 'object' ? 'an object' : `a ${typeof value}`}, not text: pass the headers as they arrived`);
  return value;
}

function parseEvent(body: Buffer): WebhookEvent {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new WebhookVerificationError('invalid_json', 'The signed body is not JSON');
  }
  const candidate = parsed as Partial<WebhookEvent> | null;
  if (typeof candidate !== 'object' || candidate === null || typeof candidate.id !== 'string' || typeof candidate.type !== 'string') {
    throw new WebhookVerificationError('invalid_json', 'The signed body is not an event (no id or type)');
  }
  return candidate as WebhookEvent;
}
