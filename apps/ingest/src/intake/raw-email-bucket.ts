import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { ingestRawEmailBucketName, MAX_RAW_EMAIL_BYTES } from '@pp/contracts';
import { blobBucketStream, checkStream, CONFIG, deleteBlob, ingestRawBucketPlace, NATS_CONNECTION, openBlobBucket, readBlob, ServiceMetrics, watchStreamFill } from '@pp/platform';
import type { NatsConnection, ObjectStore } from 'nats';
import type { IngestConfig } from '../ingest.config';

/**
 * The object store through which the gateway hands over e-mails too large for one NATS message.
 * The migrate step makes it, bounded by INGEST_BUCKET_MAX_BYTES so that the gateway, which faces
 * the internet, cannot fill the JetStream volume through it; the ingest reads and deletes objects.
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
    await checkStream(this.nc, ingestRawBucketPlace(this.config.PP_NAMESPACE));
    this.store = await openBlobBucket(this.nc, this.name);
  }

  /** The object's bytes, or null when there is none of that name (taken already, or expired); read without a consumer (readBlob). */
  get(name: string): Promise<Buffer | null> {
    return readBlob(this.nc, this.opened(), this.name, name, MAX_RAW_EMAIL_BYTES);
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
