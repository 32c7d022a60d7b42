import { createHash } from 'node:crypto';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '@pp/sdk';
import { IsString, Length } from 'class-validator';

/*
 * The Idempotency-Key as every HTTP edge takes it and every service records it (PRODUCT-RULES §D3;
 * docs/ARCHITECTURE.md, "Idempotency and what Redis holds").
 */

/** How long an Idempotency-Key answers its first request again (PRODUCT-RULES §8: 24 hours); after that it is a new key. */
export const IDEMPOTENCY_RETENTION_SECONDS = 24 * 60 * 60;

/** PRODUCT-RULES §D3's answer to a POST that needs an Idempotency-Key and came without one (the gateway's, the dashboard's). */
export const IDEMPOTENCY_KEY_REQUIRED = 'Validation failed: Idempotency-Key header is required';

/**
 * Why an Idempotency-Key header cannot be taken, or undefined: missing or blank, or longer than the edge takes (the
 * gateway's and the dashboard's limits differ).
 */
export function idempotencyKeyRefusal(header: string | string[] | undefined, maxLength: number): string | undefined {
  if (typeof header !== 'string' || header.trim() === '') return IDEMPOTENCY_KEY_REQUIRED;
  if (header.length > maxLength) return `Validation failed: Idempotency-Key must be at most ${maxLength} characters`;
  return undefined;
}

/** The Idempotency-Key of the HTTP request and a fingerprint of its body, recorded with the append (PRODUCT-RULES §D3). */
export class IdempotencyToken {
  @IsString()
  @Length(1, MAX_IDEMPOTENCY_KEY_LENGTH)
  key!: string;

  @IsString()
  @Length(1, 128)
  fingerprint!: string;
}

/**
 * JSON with object keys sorted at every level, so two bodies that differ only
 * in key order have the same fingerprint. Bodies reach this point already
 * bounded in depth by the JSON parser.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * sha256 of the canonical JSON of a request body, hex: IdempotencyToken.fingerprint, computed the same way by every
 * HTTP edge that sends a command with its caller's Idempotency-Key (the gateway, the dashboard).
 */
export const bodyFingerprint = (body: unknown): string => createHash('sha256').update(canonicalJson(body ?? {}), 'utf8').digest('hex');
