import {
  INGEST_RAW_BUCKET_TTL_MS,
  INGEST_RAW_EMAIL_MAX_MSG_SIZE,
  INGEST_RAW_EMAIL_SUBJECT,
  ingestRawEmailBucketName,
  ingestRawEmailStreamName,
  LEDGER_EVENTS_STREAM,
  LEDGER_EVENTS_SUBJECTS,
  MERCHANT_EVENTS_FEED,
  MERCHANT_EVENTS_FILTER,
} from '@pp/contracts';
import { DiscardPolicy, RetentionPolicy } from 'nats';
import { subjectPrefix } from '../nats/connect-nats';
import { blobBucketStream, type BlobBucketSpec } from './blob-bucket';
import { streamName, type StreamSpec } from './ensure-stream';

/**
 * Every JetStream stream and object store of the system, with its settings
 * (docs/ARCHITECTURE.md "JetStream"). The migrate step creates them and keeps
 * them up to date (provision-jetstream.ts); the services only check, at boot,
 * that theirs is there as made (stream-check.ts).
 */

/** A stream's name, what it captures and where it republishes, namespace applied: what a service checks before it uses the stream. */
export interface StreamPlace {
  name: string;
  subjects: string[];
  /** Stored messages on `src` are published again on `dest`, with no reply subject (absent: none). */
  republish?: { src: string; dest: string };
}

/** What the migrate step reads from its environment to lay the streams out. */
export interface JetStreamLayoutSettings {
  namespace: string;
  /** Copies of each stream across a JetStream cluster (JETSTREAM_REPLICAS). */
  replicas: number;
  /** Bytes the raw-mail stream may hold (INGEST_STREAM_MAX_BYTES). */
  ingestStreamMaxBytes: number;
  /** Bytes the raw-mail object store may hold (INGEST_BUCKET_MAX_BYTES). */
  ingestBucketMaxBytes: number;
}

/**
 * The ledger's committed events. Re-publications happen only for events published but not yet
 * checkpointed (at most a few seconds of them and one page, after a crash); an hour of duplicate
 * window covers a long outage between the two, and consumers dedupe on the event id anyway.
 */
const LEDGER_EVENTS_DUPLICATE_WINDOW_MS = 60 * 60 * 1000;
const LEDGER_EVENTS_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** E-mails the ingest has not stored within a week (it was down that long) are dropped. */
const INGEST_EMAIL_MAX_AGE_MS = 7 * 24 * 3600 * 1000;
/** JetStream's default, which the streams created by earlier versions have. */
const INGEST_EMAIL_DUPLICATE_WINDOW_MS = 2 * 60 * 1000;

export const ledgerEventsPlace = (namespace: string): StreamPlace => ({
  name: streamName(namespace, LEDGER_EVENTS_STREAM),
  subjects: [subjectPrefix(namespace) + LEDGER_EVENTS_SUBJECTS],
  republish: { src: subjectPrefix(namespace) + MERCHANT_EVENTS_FILTER, dest: subjectPrefix(namespace) + MERCHANT_EVENTS_FEED },
});

export const ingestRawEmailPlace = (namespace: string): StreamPlace => ({
  name: ingestRawEmailStreamName(namespace),
  subjects: [subjectPrefix(namespace) + INGEST_RAW_EMAIL_SUBJECT],
});

/** The raw-mail object store's stream, with the subjects the object store gives it. */
export const ingestRawBucketPlace = (namespace: string): StreamPlace => {
  const bucket = ingestRawEmailBucketName(namespace);
  return { name: blobBucketStream(bucket), subjects: [`$O.${bucket}.C.>`, `$O.${bucket}.M.>`] };
};

export function jetStreamLayout(settings: JetStreamLayoutSettings): { streams: StreamSpec[]; buckets: BlobBucketSpec[] } {
  const { namespace, replicas } = settings;
  return {
    streams: [
      // No byte limit (docs/OPERATIONS.md, "JetStream storage limits"): only the ledger writes here, and what the
      // stream cannot take is published again from Postgres; the streams outsiders write are the bounded ones.
      { ...ledgerEventsPlace(namespace), duplicateWindowMs: LEDGER_EVENTS_DUPLICATE_WINDOW_MS, maxAgeMs: LEDGER_EVENTS_MAX_AGE_MS, replicas },
      {
        ...ingestRawEmailPlace(namespace),
        // The raw message is kept in Postgres; the stream only carries it there.
        retention: RetentionPolicy.Workqueue,
        maxAgeMs: INGEST_EMAIL_MAX_AGE_MS,
        duplicateWindowMs: INGEST_EMAIL_DUPLICATE_WINDOW_MS,
        replicas,
        // Untrusted writers publish here: bounded, so they cannot fill the volume LEDGER_EVENTS needs. When full,
        // the pipeline's publish is refused (it keeps the e-mail and retries); a waiting e-mail is never dropped.
        maxBytes: settings.ingestStreamMaxBytes,
        discard: DiscardPolicy.New,
        maxMsgSize: INGEST_RAW_EMAIL_MAX_MSG_SIZE,
      },
    ],
    // The gateway, which faces the internet, writes here: bounded for the same reason.
    buckets: [{ name: ingestRawEmailBucketName(namespace), ttlMs: INGEST_RAW_BUCKET_TTL_MS, replicas, maxBytes: settings.ingestBucketMaxBytes }],
  };
}
