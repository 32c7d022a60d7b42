import { idempotencyKeyRefusal } from '@pp/contracts';

/**
 * At most this many characters: the key the services record is the user's prefix (at most 79) and this, within the
 * 255 an IdempotencyToken carries. The web app sends 32.
 */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 128;

/**
 * Why a creation or rotation cannot go ahead with this Idempotency-Key header, or undefined. Every POST of the
 * dashboard that makes a secret shown once needs one, as the gateway's POSTs do: without it, a retry after an answer
 * that was lost (the bus deadline passed after the service committed) would make a second endpoint or key.
 */
export const dashboardIdempotencyKeyRefusal = (header: string | string[] | undefined): string | undefined => idempotencyKeyRefusal(header, MAX_IDEMPOTENCY_KEY_LENGTH);

/**
 * The key as the services record it, in a space of its own: the dashboard's, then the signed-in user's. The services
 * scope keys by merchant and mode (webhook endpoints, API keys) or to the console (new merchants), scopes that the
 * merchant's own API requests share for endpoints; the prefix keeps a user's keys apart from those (an API client would
 * have to send this very prefix and the user's random key) and from other users', so only the user whose action it was
 * gets its repeat answered (a webhook secret shown again).
 */
export const userIdempotencyKey = (userId: string, header: string): string => `dashboard:${userId}:${header}`;
