import { DiscardPolicy, nanos, type JetStreamManager, type NatsConnection, RetentionPolicy, StorageType, type StreamConfig } from 'nats';

export interface StreamSpec {
  /** Base name, e.g. LEDGER_EVENTS; the namespace is prepended by `streamName`. */
  name: string;
  /** Subjects with the namespace prefix already applied. */
  subjects: string[];
  /** How long JetStream remembers Nats-Msg-Id values to drop re-publications. */
  duplicateWindowMs: number;
  /** How long messages are kept (0: for ever). */
  maxAgeMs: number;
  /** Copies kept across a JetStream cluster (JETSTREAM_REPLICAS of the migrate step: 1 on one server, 3 on the Kubernetes cluster). */
  replicas: number;
  /** Limits (the default): messages stay until their age or the stream's limits remove them; Workqueue: until a consumer acknowledges them. */
  retention?: RetentionPolicy;
  /**
   * Bytes the stream may hold on the JetStream volume (absent: no limit). A stream that untrusted
   * writers fill must have one, or filling it fills the volume every other stream needs.
   */
  maxBytes?: number;
  /** What a full stream does: Old (the default) drops its oldest messages; New refuses the publish, which its sender sees. */
  discard?: DiscardPolicy;
  /** Largest message the stream takes, headers included (absent: the server's max_payload). */
  maxMsgSize?: number;
  /** Stored messages on `src` published again on `dest`, without a reply subject (absent: none). */
  republish?: { src: string; dest: string };
}

/**
 * JetStream stream names cannot contain dots, so the namespace joins with an
 * underscore: "t42" + "LEDGER_EVENTS" → "t42_LEDGER_EVENTS".
 */
export const streamName = (namespace: string, base: string): string => (namespace ? `${namespace}_${base}` : base);

/** JetStream's "no limit" for a byte or size setting. */
const UNLIMITED = -1;

/**
 * Creates the stream, or brings an existing one's settings up to date (idempotent; safe when run twice at once).
 * Only the migrate identity may (provision-jetstream.ts).
 * Every setting the spec names is applied, defaults included, so a limit dropped from the spec is lifted as well.
 * A NATS server before 2.9.12 cannot change an existing stream's republication: the other settings are applied,
 * the republication stays as it was, and `warn` says so (what hears the republished subjects then hears nothing).
 */
export async function ensureStream(nc: NatsConnection, spec: StreamSpec, warn: (line: string) => void = () => undefined): Promise<JetStreamManager> {
  const jsm = await nc.jetstreamManager();
  const settings = {
    subjects: spec.subjects,
    duplicate_window: nanos(spec.duplicateWindowMs),
    max_age: nanos(spec.maxAgeMs),
    retention: spec.retention ?? RetentionPolicy.Limits,
    max_bytes: spec.maxBytes ?? UNLIMITED,
    discard: spec.discard ?? DiscardPolicy.Old,
    max_msg_size: spec.maxMsgSize ?? UNLIMITED,
    num_replicas: spec.replicas,
    // Absent, it is absent from the update too, which removes a republication the spec no longer names.
    republish: spec.republish,
  };
  const updated = await updateStreamSettings(jsm, spec.name, settings).catch(async (error: unknown) => {
    if (!(error instanceof Error && REPUBLISH_FIXED.test(error.message))) throw error;
    const { republish: _kept, ...others } = settings;
    warn(
      `this NATS server cannot change the republication of stream ${spec.name} it already holds (NATS before 2.9.12): it keeps ` +
        `${spec.republish ? `not republishing ${spec.republish.src} to ${spec.republish.dest}` : 'its republication'}; upgrade NATS, then run the migrate step again`,
    );
    return updateStreamSettings(jsm, spec.name, others);
  });
  if (updated) return jsm;
  await jsm.streams.add({ name: spec.name, storage: StorageType.File, ...settings }).catch(async (addError) => {
    // another replica created it meanwhile
    if (!(await jsm.streams.info(spec.name).then(() => true, () => false))) throw addError;
  });
  return jsm;
}

/**
 * Brings the named settings of an existing stream up to date, keeping the rest of its configuration
 * (a stream created by an older version, or by a library such as the object store's). Answers false
 * when there is no such stream. Updates only on a real change: an update is not free and replicas start often.
 */
export async function updateStreamSettings(jsm: JetStreamManager, name: string, settings: Partial<StreamConfig>): Promise<boolean> {
  let current: StreamConfig;
  try {
    current = (await jsm.streams.info(name)).config;
  } catch (error) {
    if (isStreamNotFound(error)) return false;
    throw error;
  }
  const drifted = (Object.keys(settings) as (keyof StreamConfig)[]).some((key) => !sameSetting(current[key], settings[key]));
  if (drifted) await jsm.streams.update(name, { ...current, ...settings });
  return true;
}

/** Settings are numbers, strings and arrays of subjects (whose order JetStream keeps). */
const sameSetting = (current: unknown, wanted: unknown): boolean => JSON.stringify(current) === JSON.stringify(wanted);

/** How a server before 2.9.12 refuses an update that changes a stream's republication (nats-server#3811 lifted it). */
const REPUBLISH_FIXED = /can not change republish/i;

export const isStreamNotFound = (error: unknown): boolean =>
  error instanceof Error && /stream not found/i.test(error.message);
