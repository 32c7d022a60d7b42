import { MAX_RAW_EMAIL_BYTES } from './submit-email.command';

/**
 * JetStream subject the mail pipeline publishes raw RFC 822 bytes to
 * (PRODUCT-RULES §D4), before PP_NAMESPACE is prefixed. A message is acknowledged
 * once the ingest service has stored it. Do not rename without a migration.
 */
export const INGEST_RAW_EMAIL_SUBJECT = 'ingest.email.raw';

/** The stream holding that subject; JetStream stream names cannot contain dots, so the namespace joins with "_". */
export const ingestRawEmailStreamName = (namespace: string): string =>
  namespace ? `${namespace}_INGEST_EMAIL` : 'INGEST_EMAIL';

/**
 * Largest message that stream takes (JetStream counts headers in): the largest raw e-mail the
 * ingest accepts, with room for the publisher's headers (trace context, message id). The byte
 * limits of the stream and of the object store below leave room for at least one such e-mail.
 */
export const INGEST_RAW_EMAIL_MAX_MSG_SIZE = MAX_RAW_EMAIL_BYTES + 64 * 1024;

/** Object store (JetStream) for raw messages too large for one bus message; objects are named by their sha256. */
export const ingestRawEmailBucketName = (namespace: string): string => (namespace ? `${namespace}_INGEST_RAW` : 'INGEST_RAW');

/** Objects not picked up by the ingest service within this time are dropped by JetStream. */
export const INGEST_RAW_BUCKET_TTL_MS = 24 * 60 * 60 * 1000;
