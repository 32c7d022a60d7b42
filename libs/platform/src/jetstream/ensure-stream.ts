import { nanos, type JetStreamManager, type NatsConnection, RetentionPolicy, StorageType } from 'nats';

export interface StreamSpec {
  /** Base name, e.g. LEDGER_EVENTS; the namespace is prepended by `streamName`. */
  name: string;
  /** Subjects with the namespace prefix already applied. */
  subjects: string[];
  /** How long JetStream remembers Nats-Msg-Id values to drop re-publications. */
  duplicateWindowMs: number;
  /** How long messages are kept (0: for ever). */
  maxAgeMs: number;
  /** Copies kept across a JetStream cluster (JETSTREAM_REPLICAS: 1 on one server, 3 on the Kubernetes cluster). */
  replicas: number;
}

/**
 * JetStream stream names cannot contain dots, so the namespace joins with an
 * underscore: "t42" + "LEDGER_EVENTS" → "t42_LEDGER_EVENTS".
 */
export const streamName = (namespace: string, base: string): string => (namespace ? `${namespace}_${base}` : base);

/** Creates the stream, or brings an existing one's settings up to date (idempotent; safe from several replicas). */
export async function ensureStream(nc: NatsConnection, spec: StreamSpec): Promise<JetStreamManager> {
  const jsm = await nc.jetstreamManager();
  const config = {
    name: spec.name,
    subjects: spec.subjects,
    duplicate_window: nanos(spec.duplicateWindowMs),
    max_age: nanos(spec.maxAgeMs),
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    num_replicas: spec.replicas,
  };
  try {
    const { config: current } = await jsm.streams.info(spec.name);
    const drifted =
      current.duplicate_window !== config.duplicate_window ||
      current.max_age !== config.max_age ||
      current.num_replicas !== config.num_replicas ||
      current.subjects.join(' ') !== config.subjects.join(' ');
    // Update only on a real change: an update is not free and replicas start often.
    if (drifted) await jsm.streams.update(spec.name, { ...current, ...config });
  } catch (error) {
    if (!isStreamNotFound(error)) throw error;
    await jsm.streams.add(config).catch(async (addError) => {
      // another replica created it meanwhile
      if (!(await jsm.streams.info(spec.name).then(() => true, () => false))) throw addError;
    });
  }
  return jsm;
}

const isStreamNotFound = (error: unknown): boolean =>
  error instanceof Error && /stream not found/i.test(error.message);
