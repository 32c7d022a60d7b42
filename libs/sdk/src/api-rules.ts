/*
 * Rules of the API that the SDK checks before sending anything. Defined here
 * and imported by the gateway and the contracts, never the other way round:
 * the published SDK may import nothing of ours (eslint.config.mjs), while
 * they may import it.
 */

/** The longest Idempotency-Key the gateway takes. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** An event id the gateway can know: any other is refused (a `since`, a `Last-Event-ID`) or not found. */
export const EVENT_ID_PATTERN = /^evt_[a-z0-9]{8,64}$/;

/**
 * An X-Request-Id the services keep as it is (isWellFormedRequestId, libs/platform/src/http/request-id.ts).
 * The gateway swaps any other for a UUID of its own, so its logs would not
 * carry the caller's id; a control character would make fetch throw.
 */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
