/**
 * JetStream subject the mail pipeline publishes raw RFC 822 bytes to
 * (PRODUCT-RULES §D4), before PP_NAMESPACE is prefixed. A message is acknowledged
 * once the ingest service has stored it. Do not rename without a migration.
 */
export const INGEST_RAW_EMAIL_SUBJECT = 'ingest.email.raw';

/** The stream holding that subject; JetStream stream names cannot contain dots, so the namespace joins with "_". */
export const ingestRawEmailStreamName = (namespace: string): string =>
  namespace ? `${namespace}_INGEST_EMAIL` : 'INGEST_EMAIL';

/** Object store (JetStream) for raw messages too large for one bus message; objects are named by their sha256. */
export const ingestRawEmailBucketName = (namespace: string): string => (namespace ? `${namespace}_INGEST_RAW` : 'INGEST_RAW');

/** Objects not picked up by the ingest service within this time are dropped by JetStream. */
export const INGEST_RAW_BUCKET_TTL_MS = 24 * 60 * 60 * 1000;
