import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { BaseConfig, toInt } from '../config/config-schemas';
import type { JetStreamLayoutSettings } from './jetstream-layout';

const GIB = 1024 ** 3;
const TIB = 1024 ** 4;

/**
 * The smallest byte limit of the raw-mail stream and bucket: room for one e-mail of the largest
 * size with its headers (INGEST_RAW_EMAIL_MAX_MSG_SIZE in libs/contracts; the unit spec compares the two).
 */
export const MIN_RAW_EMAIL_STORE_BYTES = 8 * 1024 ** 2;

/** A byte limit of a JetStream stream: whole bytes, from MIN_RAW_EMAIL_STORE_BYTES to 1 TiB. */
function IsByteLimit(): PropertyDecorator {
  const rules = [
    IsOptional(),
    Transform(toInt),
    IsInt({ message: 'must be a whole number of bytes, e.g. 1073741824 (1 GiB)' }),
    Min(MIN_RAW_EMAIL_STORE_BYTES, { message: `must be at least ${MIN_RAW_EMAIL_STORE_BYTES} (bytes, 8 MiB): one e-mail of the largest size must fit` }),
    Max(TIB, { message: `must be at most ${TIB} (bytes, 1 TiB)` }),
  ];
  return (target, key) => rules.forEach((rule) => rule(target, key));
}

/**
 * What the migrate step reads to create the JetStream streams and object stores and keep their
 * settings (NATS_URL logs in as the `migrate` bus identity, the only one allowed to).
 */
export class JetStreamProvisioningConfig extends BaseConfig {
  /** Copies of each stream: 1 on a single server, 3 on a three-node cluster (docs/OPERATIONS.md). */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of replicas' })
  @Min(1)
  @Max(5)
  JETSTREAM_REPLICAS = 1;

  /**
   * Bytes the mail pipeline's stream (INGEST_EMAIL: e-mails published and not yet stored by the
   * ingest) may hold on the JetStream volume. A full stream refuses the pipeline's publish, which
   * keeps the e-mail and retries, and drops nothing it holds; so an untrusted writer cannot fill
   * the volume the ledger's event stream needs. Applied to an existing stream too.
   */
  @IsByteLimit()
  INGEST_STREAM_MAX_BYTES = GIB;

  /**
   * Bytes the raw-mail object store (INGEST_RAW: e-mails posted to the gateway that are too large
   * for one NATS message, until the ingest has stored them) may hold. When it is full the gateway
   * answers such a post 503 (retry later).
   */
  @IsByteLimit()
  INGEST_BUCKET_MAX_BYTES = GIB;
}

export const layoutSettingsOf = (config: JetStreamProvisioningConfig): JetStreamLayoutSettings => ({
  namespace: config.PP_NAMESPACE,
  replicas: config.JETSTREAM_REPLICAS,
  ingestStreamMaxBytes: config.INGEST_STREAM_MAX_BYTES,
  ingestBucketMaxBytes: config.INGEST_BUCKET_MAX_BYTES,
});
