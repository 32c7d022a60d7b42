/**
 * Error codes that cross the bus. Services throw DomainError with one of these
 * codes; only the gateway's edge maps a code to an HTTP status.
 * Do not rename values: they travel on the wire.
 */
export enum ErrorCode {
  ValidationFailed = 'VALIDATION_FAILED',
  NotFound = 'NOT_FOUND',
  Conflict = 'CONFLICT',
  ConcurrencyConflict = 'CONCURRENCY_CONFLICT',
  Forbidden = 'FORBIDDEN',
  Unauthorized = 'UNAUTHORIZED',
  ServiceUnavailable = 'SERVICE_UNAVAILABLE',
  Internal = 'INTERNAL',
}

/**
 * PRODUCT-RULES §D3's answer to an Idempotency-Key sent again with another body, word for word: the gateway's Redis
 * check and the services that keep keys with their writes (ledger, webhooks) all answer it, and the gateway passes it on
 * without its usual "Validation failed: " prefix.
 */
export const IDEMPOTENCY_KEY_REUSED = 'Idempotency-Key reused with different parameters';

/** The error half of a bus reply. */
export interface WireError {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  toWire(): WireError {
    return { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) };
  }

  static fromWire(wire: WireError): DomainError {
    return new DomainError(wire.code, wire.message, wire.details);
  }
}

export function isWireError(value: unknown): value is WireError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as WireError).code === 'string' &&
    typeof (value as WireError).message === 'string'
  );
}
