import { ingestRawEmailBucketName, ingestRawEmailStreamName, INGEST_RAW_EMAIL_SUBJECT } from '../ingest/ingest-streams';
import { LEDGER_EVENTS_STREAM, LEDGER_EVENTS_SUBJECTS, MERCHANT_EVENTS_FEED } from '../ledger/ledger-events.stream';
import { MAIL_PIPELINE, type BusIdentity } from './bus-identities';

/** Who may do what with one JetStream stream (names and subjects before PP_NAMESPACE is applied). */
export interface StreamAccess {
  stream: string;
  subjects: readonly string[];
  /** The service it belongs to: it reads the stream's state (its fill, for the alerts) and checks it at boot; the migrate step creates it and keeps its settings up to date. */
  owner: BusIdentity;
  /** Publish to the stream's subjects (and get JetStream's acknowledgement). */
  publishers: readonly BusIdentity[];
  /** Create durable consumers on the stream, pull and acknowledge messages. */
  consumers: readonly BusIdentity[];
  /**
   * Hear new messages on `followed` live, as they are published: a plain subscription, with no
   * JetStream right at all. A right to create consumers on the stream, even ephemeral ones, would
   * reach its durable consumers too: NATS's older create API takes the consumer's name in the
   * request's body, where no subject permission can see it, and replaces a durable of that name.
   * A follower may miss messages (a reconnect): whoever needs every message reads a durable copy.
   */
  followers: readonly BusIdentity[];
  /** What followers hear: where the stream republishes some of its stored messages (before PP_NAMESPACE is applied). */
  followed: readonly string[];
  /** The consumers' durable consumer names: nobody else may create, change or delete them (an ordered consumer's wide CREATE right included). */
  durables: readonly string[];
}

/** The webhooks service's durable consumer of LEDGER_EVENTS. */
export const WEBHOOKS_DELIVERY_CONSUMER = 'webhooks-delivery';
/** The ingest service's durable consumer of its raw e-mail stream. */
export const INGEST_RAW_EMAIL_CONSUMER = 'ingest';

/**
 * An object store (its stream is OBJ_<bucket>), created and kept up to date (its byte limit among
 * its settings) by the migrate step; the owner reads its state; writers put objects, readers get
 * and delete them. No service may create or change it, so a compromised writer cannot lift the limit.
 */
export interface ObjectStoreAccess {
  bucket: string;
  owner: BusIdentity;
  writers: readonly BusIdentity[];
  readers: readonly BusIdentity[];
}

/** Every stream and object store of the system, and who uses each (docs/ARCHITECTURE.md "JetStream"). */
export const STREAM_ACCESS: readonly StreamAccess[] = [
  // The gateway hears merchant events live for GET /v1/events/stream, as the stream republishes them (never the ledger's
  // publishes, whose acknowledgements it could answer); the ledger's merchant_events log fills any gap.
  {
    stream: LEDGER_EVENTS_STREAM,
    subjects: [LEDGER_EVENTS_SUBJECTS],
    owner: 'ledger',
    publishers: ['ledger'],
    consumers: ['webhooks'],
    followers: ['gateway'],
    followed: [MERCHANT_EVENTS_FEED],
    durables: [WEBHOOKS_DELIVERY_CONSUMER],
  },
  {
    stream: ingestRawEmailStreamName(''),
    subjects: [INGEST_RAW_EMAIL_SUBJECT],
    owner: 'ingest',
    publishers: [MAIL_PIPELINE],
    consumers: ['ingest'],
    followers: [],
    followed: [],
    durables: [INGEST_RAW_EMAIL_CONSUMER],
  },
];

export const OBJECT_STORE_ACCESS: readonly ObjectStoreAccess[] = [
  // The ingest owns the raw-mail bucket; the gateway, which faces the internet, puts mail in it. Its writer's grants let it read
  // and purge the bucket too (docs/SECURITY.md, Known limits): only ingest reading it is the code's rule, not the server's.
  { bucket: ingestRawEmailBucketName(''), owner: 'ingest', writers: ['gateway'], readers: ['ingest'] },
];
