import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { INGEST_RAW_BUCKET_TTL_MS, ingestRawEmailBucketName } from '@pp/contracts';
import { blobBucketStream, CONFIG, deleteBlob, ensureBlobBucket, NATS_CONNECTION, ServiceMetrics, watchStreamFill } from '@pp/platform';
import type { NatsConnection, ObjectStore } from 'nats';
import type { IngestConfig } from '../ingest.config';

/**
 * The object store through which the gateway hands over e-mails too large for one NATS message.
 * The ingest owns it (bus access registry): it creates it at boot, or brings one an older version
 * created up to date, with INGEST_BUCKET_MAX_BYTES, so that the gateway, which faces the internet,
 * cannot fill the JetStream volume through it.
 */
@Injectable()
export class RawEmailBucket implements OnApplicationBootstrap {
  private readonly name: string;
  private store?: ObjectStore;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(CONFIG) private readonly config: IngestConfig,
    metrics: ServiceMetrics,
  ) {
    this.name = ingestRawEmailBucketName(config.PP_NAMESPACE);
    watchStreamFill(metrics, nc, { name: blobBucketStream(this.name), label: blobBucketStream(ingestRawEmailBucketName('')) });
  }

  async onApplicationBootstrap(): Promise<void> {
    const spec = { name: this.name, ttlMs: INGEST_RAW_BUCKET_TTL_MS, replicas: this.config.JETSTREAM_REPLICAS, maxBytes: this.config.INGEST_BUCKET_MAX_BYTES };
    this.store = await ensureBlobBucket(this.nc, spec).catch((error: Error) => {
      // Most often the JetStream volume cannot hold the limits: say which setting asked for the room.
      throw new Error(`the raw-mail bucket ${this.name} (INGEST_BUCKET_MAX_BYTES=${spec.maxBytes}) cannot be set up: ${error.message}`);
    });
  }

  /** The object's bytes, or null when there is none of that name (taken already, or expired). */
  async get(name: string): Promise<Buffer | null> {
    const bytes = await this.opened().getBlob(name);
    return bytes ? Buffer.from(bytes) : null;
  }

  /** Frees the object once its e-mail is stored (it would expire anyway). */
  remove(name: string): Promise<void> {
    return deleteBlob(this.nc, this.opened(), this.name, name);
  }

  private opened(): ObjectStore {
    if (!this.store) throw new Error('the raw-mail bucket is used before the service has started');
    return this.store;
  }
}
