import type { JetStreamManager, NatsConnection, StreamConfig } from 'nats';
import { isStreamNotFound } from './ensure-stream';
import type { StreamPlace } from './jetstream-layout';

/** What a service says when its stream is missing or was changed: who makes it. */
const MADE_BY = 'the migrate step creates it and keeps its settings (node dist/libs/platform/src/database/migrate-all.js; docs/ARCHITECTURE.md "JetStream")';

/**
 * For a service at boot: the stream it uses exists and captures exactly its
 * subjects, and passes nothing on. Services may not create or change streams
 * (the bus access registry gives that to the migrate step alone); this says
 * plainly when the migrate step has not run, or names what someone changed.
 */
export async function checkStream(nc: NatsConnection, place: StreamPlace): Promise<JetStreamManager> {
  const jsm = await nc.jetstreamManager();
  let config: StreamConfig;
  try {
    config = (await jsm.streams.info(place.name)).config;
  } catch (error) {
    if (isStreamNotFound(error)) throw new Error(`JetStream stream ${place.name} does not exist: ${MADE_BY}`);
    throw error;
  }
  const changes = streamChanges(config, place);
  if (changes.length > 0) throw new Error(`JetStream stream ${place.name} is not as the migrate step made it: ${changes.join('; ')}. ${MADE_BY}`);
  return jsm;
}

/**
 * How a stream's configuration lets messages reach anyone but its own consumers, or takes in more
 * than its subjects: other subjects captured (another identity's replies, say), messages republished
 * otherwise than the layout says, or other streams sourced or mirrored. Empty when it is as the layout says.
 */
export function streamChanges(config: StreamConfig, place: StreamPlace): string[] {
  const changes: string[] = [];
  const subjects = [...(config.subjects ?? [])].sort();
  if (JSON.stringify(subjects) !== JSON.stringify([...place.subjects].sort())) {
    changes.push(`it captures ${JSON.stringify(subjects)} instead of ${JSON.stringify(place.subjects)}`);
  }
  // None at all passes nothing on: a stream an older NATS server could not give its republication (ensureStream).
  const { republish } = config;
  if (republish && (republish.src !== place.republish?.src || republish.dest !== place.republish.dest || republish.headers_only)) {
    changes.push(`it republishes into ${republish.dest}`);
  }
  if (config.sources?.length) changes.push(`it sources ${config.sources.map((source) => source.name).join(', ')}`);
  if (config.mirror) changes.push(`it mirrors ${config.mirror.name}`);
  if (config.subject_transform) changes.push('it transforms subjects');
  return changes;
}
