/** Anything the SDK throws derives from this. */
export class CheckoutError extends Error {
  override name = 'CheckoutError';
}

/**
 * The API answered with an error status. `message` adds the status and
 * request to the API's own words, kept as they came in `apiMessage`.
 * `requestId` is the gateway's X-Request-Id (else, for an answer without one,
 * such as a proxy's 502, the one the SDK sent): quote it when contacting
 * support. `idempotencyKey` (POST only) is the key the call sent, the SDK's
 * own when the caller gave none: sending the call again with it cannot do
 * the operation twice.
 */
export class ApiError extends CheckoutError {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    /** The API's `error`, or `<METHOD> <path> answered <status>` when the answer carried none (a proxy's page). */
    readonly apiMessage: string,
    readonly requestId: string | undefined,
    readonly headers: Headers,
    readonly idempotencyKey?: string,
  ) {
    super(requestId ? `${apiMessage} (status ${status}, request ${requestId})` : `${apiMessage} (status ${status})`);
  }
}

/** 400: the message names the field ('Validation failed: ...') or the bad query. */
export class InvalidRequestError extends ApiError {
  override name = 'InvalidRequestError';
}
/** 401: missing, malformed, unknown, revoked or expired key. */
export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError';
}
/** 403: the key lacks a scope, or is the wrong kind (publishable, live key on a test-only route). */
export class PermissionError extends ApiError {
  override name = 'PermissionError';
}
/** 404: no such resource for this key's merchant and mode. */
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
}
/** 409: a conflicting state, or the same Idempotency-Key still in progress after every retry. */
export class ConflictError extends ApiError {
  override name = 'ConflictError';
}
/** 429 after every retry. */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
}
/** 5xx after every retry. */
export class ServerError extends ApiError {
  override name = 'ServerError';
}

/** A call that got no answer, which may have run all the same: what to send it again with, and what the gateway logged it under. */
abstract class UnansweredError extends CheckoutError {
  constructor(
    message: string,
    cause: unknown,
    /** POST only: the Idempotency-Key to send it again with. */
    readonly idempotencyKey?: string,
    /** The gateway's X-Request-Id once its answer began (a stream that broke off), else the one the SDK sent (the gateway logs the request under it if it got that far). */
    readonly requestId?: string,
  ) {
    super(message, { cause });
  }
}

/**
 * No answer: the connection failed or the per-request timeout passed, on
 * every attempt, or an event stream went silent or broke off. The request
 * may have run.
 */
export class ConnectionError extends UnansweredError {
  override name = 'ConnectionError';
}

/**
 * The caller's `signal` stopped the call (while it waited for an answer, for
 * a retry, or for a stream's next event); `cause` is the signal's reason. A
 * POST may have run. Never retried.
 */
export class AbortedError extends UnansweredError {
  override name = 'AbortedError';
}

/**
 * An answer the SDK cannot read: a 2xx body that is not JSON or is empty
 * (but a 204's), an event stream that is not text/event-stream, a list page
 * that is not a list or has no new id to continue after, a stream message
 * that is not an event, a body over MAX_RESPONSE_BYTES, or a redirect (3xx,
 * never followed). Usually something between the client and the gateway
 * (a proxy's page), a wrong `apiBase`, or an API newer than the SDK.
 * `requestId` is the gateway's X-Request-Id, else the one the SDK sent.
 */
export class UnexpectedResponseError extends CheckoutError {
  override name = 'UnexpectedResponseError';
  constructor(
    message: string,
    /** POST only: the key the call sent (its 2xx answer means the operation ran). */
    readonly idempotencyKey?: string,
    readonly requestId?: string,
  ) {
    super(message);
  }
}

const BY_STATUS: Record<number, typeof ApiError> = {
  400: InvalidRequestError,
  401: AuthenticationError,
  403: PermissionError,
  404: NotFoundError,
  409: ConflictError,
  429: RateLimitError,
};

export function apiErrorFor(status: number, apiMessage: string, requestId: string | undefined, headers: Headers, idempotencyKey?: string): ApiError {
  const Type = BY_STATUS[status] ?? (status >= 500 ? ServerError : ApiError);
  return new Type(status, apiMessage, requestId, headers, idempotencyKey);
}
