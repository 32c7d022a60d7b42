import type { NatsConnection } from 'nats';
import { ensureBlobBucket } from './blob-bucket';
import { ensureStream } from './ensure-stream';
import { jetStreamLayout, type JetStreamLayoutSettings } from './jetstream-layout';

/**
 * Creates every stream and object store of the layout, or brings existing ones (an older
 * version's) up to its settings; idempotent. Run by the migrate step, whose bus identity alone
 * may, and by the test harness for its namespace. Answers what it laid out, and any setting it could not apply, for the log.
 */
export async function provisionJetStream(nc: NatsConnection, settings: JetStreamLayoutSettings): Promise<string[]> {
  const { streams, buckets } = jetStreamLayout(settings);
  const warnings: string[] = [];
  for (const spec of streams) {
    await ensureStream(nc, spec, (line) => warnings.push(line)).catch((error: Error) => {
      // Most often the JetStream volume cannot hold the limits: say which setting asked for the room.
      throw new Error(`JetStream stream ${spec.name} (max_bytes ${spec.maxBytes ?? 'unlimited'}) cannot be set up: ${error.message}`);
    });
  }
  for (const spec of buckets) {
    await ensureBlobBucket(nc, spec).catch((error: Error) => {
      throw new Error(`JetStream object store ${spec.name} (max_bytes ${spec.maxBytes}) cannot be set up: ${error.message}`);
    });
  }
  return [...streams.map((spec) => `stream ${spec.name} up to date`), ...buckets.map((spec) => `object store ${spec.name} up to date`), ...warnings.map((line) => `warning: ${line}`)];
}
