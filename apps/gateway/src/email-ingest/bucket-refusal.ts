import { isStorageFull } from '@pp/platform';
import { ApiError } from '../http/api-error';
import { SERVICE_RETRY_AFTER_SECONDS } from '../http/error-response.filter';

/**
 * Seconds a mail relay should wait before posting again into a full bucket: room comes back only
 * as the ingest stores what the bucket holds, or as objects expire, never within a second.
 */
export const FULL_BUCKET_RETRY_AFTER_SECONDS = 60;

/**
 * The answer to a raw e-mail the bucket did not take: 503 with Retry-After and what happened,
 * never a 500, since nothing is wrong with the message and the relay must keep it and retry.
 */
export function bucketRefusal(error: unknown): ApiError {
  if (isStorageFull(error)) {
    return new ApiError(503, 'The raw e-mail store is full; keep the message and retry later', { 'Retry-After': String(FULL_BUCKET_RETRY_AFTER_SECONDS) });
  }
  return new ApiError(503, 'The raw e-mail store is unavailable; keep the message and retry later', { 'Retry-After': String(SERVICE_RETRY_AFTER_SECONDS) });
}
