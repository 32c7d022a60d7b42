/*
 * Every metric the services export, in one place: the dashboards and alert
 * rules under deploy/ may name only these (deploy/observability.unit.spec.ts),
 * and docs/OPERATIONS.md "Metrics" explains each. Label values are closed
 * sets (route templates, subjects, enums): never an id, an address or a raw URL.
 */

export type MetricKind = 'counter' | 'gauge' | 'histogram';

export interface MetricDefinition<K extends MetricKind = MetricKind, L extends string = string> {
  name: `pp_${string}`;
  kind: K;
  help: string;
  labels: readonly L[];
  /** Histograms only: upper bounds of the buckets. */
  buckets?: readonly number[];
}

/** Request latencies, from a millisecond to ten seconds. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

const counter = <L extends string>(name: `pp_${string}_total`, help: string, labels: readonly L[] = []): MetricDefinition<'counter', L> => ({
  name,
  kind: 'counter',
  help,
  labels,
});
const gauge = <L extends string>(name: `pp_${string}`, help: string, labels: readonly L[] = []): MetricDefinition<'gauge', L> => ({
  name,
  kind: 'gauge',
  help,
  labels,
});
const histogram = <L extends string>(
  name: `pp_${string}`,
  help: string,
  labels: readonly L[],
  buckets: readonly number[] = LATENCY_BUCKETS,
): MetricDefinition<'histogram', L> => ({ name, kind: 'histogram', help, labels, buckets });

// HTTP (gateway, checkout, dashboard)
export const HTTP_REQUESTS = counter('pp_http_requests_total', 'HTTP requests answered, by route template, method and status code', ['route', 'method', 'status']);
export const HTTP_REQUEST_DURATION = histogram('pp_http_request_duration_seconds', 'Time from receiving an HTTP request to the end of its answer', ['route', 'method']);

// The bus (every service)
export const BUS_REQUESTS = counter(
  'pp_bus_requests_total',
  'Bus requests handled, by subject and outcome (ok, an error code, expired: the caller had given up, or misdirected: refused unanswered, the reply subject none of its callers’ inboxes)',
  ['subject', 'outcome'],
);
export const BUS_REQUEST_DURATION = histogram('pp_bus_request_duration_seconds', 'Time a handler took to answer a bus request', ['subject']);
export const BUS_CLIENT_REQUESTS = counter('pp_bus_client_requests_total', 'Bus requests sent, by subject and outcome (ok or the error code received)', ['subject', 'outcome']);
export const BUS_CLIENT_REQUEST_DURATION = histogram('pp_bus_client_request_duration_seconds', 'Time from sending a bus request to its answer (or deadline)', ['subject']);
export const NATS_MESSAGES = counter(
  'pp_nats_messages_total',
  'Messages on the service’s NATS connection by direction (sent, received): requests, replies, JetStream publishes, deliveries and acknowledgements',
  ['direction'],
);

// Gateway
export const KEY_LOOKUPS_REFUSED = counter(
  'pp_gateway_key_lookups_refused_total',
  'Requests with an API key the gateway replica had not found before, answered 503 without a lookup: every lookup slot and place in line was taken (guesses from many addresses)',
);

export const IDEMPOTENCY_ANSWERS_NOT_KEPT = counter(
  'pp_gateway_idempotency_answers_not_kept_total',
  'POST answers not kept in Redis for Idempotency-Key replays because their merchant’s mode (or the admin token) had kept IDEMPOTENCY_KEPT_BYTES_PER_SCOPE in 24 h; a retry is answered by the service that recorded the key',
);

// Ledger
export const LEDGER_APPEND_DURATION = histogram('pp_ledger_append_duration_seconds', 'Time from an append reaching the ledger to its commit (queueing for the group commit included)', []);
export const LEDGER_BATCH_SIZE = histogram('pp_ledger_group_commit_batch_size', 'Appends committed together in one transaction', [], [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1000]);
export const LEDGER_EVENTS = counter('pp_ledger_events_total', 'Events committed to the event store, by event type (session.created, payment.confirmed, refund.completed, ...)', ['type']);
export const PUBLICATION_LAG = gauge('pp_publication_lag_positions', 'Events committed but not yet published to JetStream (counted up to 100000)');
export const PUBLICATION_LAG_SECONDS = gauge('pp_publication_lag_seconds', 'Age of the oldest committed event not yet published to JetStream (0 when none)');
export const PAYMENTS_AWAITING_REVIEW = gauge('pp_payments_awaiting_review', 'Payments in REQUIRES_MANUAL_REVIEW (the platform admins’ review queue), by mode', ['mode']);
export const REFUNDS_OPEN = gauge('pp_refunds_open', 'Live refunds waiting for the platform operator, by stage (REQUESTED, APPROVED, SENT)', ['stage']);
export const REFUNDS_OPEN_OLDEST_SECONDS = gauge('pp_refunds_open_oldest_seconds', 'How long the oldest live refund of each open stage has been in it (0 when none)', ['stage']);

// JetStream and BullMQ, read at each scrape
export const CONSUMER_PENDING = gauge('pp_jetstream_consumer_pending', 'Messages in the stream a durable consumer has not received yet', ['stream', 'consumer']);
export const CONSUMER_ACK_PENDING = gauge('pp_jetstream_consumer_ack_pending', 'Messages a durable consumer received and has not acknowledged yet', ['stream', 'consumer']);
export const STREAM_FILL = gauge('pp_jetstream_stream_fill_ratio', 'Share of its byte limit a bounded JetStream stream or object store holds (0 to 1); a full one refuses new messages', ['stream']);
export const QUEUE_JOBS = gauge('pp_queue_jobs', 'BullMQ jobs by queue and state (waiting, delayed, active, failed)', ['queue', 'state']);

// Webhooks
export const WEBHOOK_ATTEMPTS = counter('pp_webhook_attempts_total', 'Webhook delivery attempts, by outcome (success, retry, exhausted) and response class (2xx ... 5xx, none: no HTTP answer, not_sent: held back too long for a slow endpoint)', ['outcome', 'response']);
export const WEBHOOK_ATTEMPT_DURATION = histogram('pp_webhook_attempt_duration_seconds', 'Time one webhook attempt took, connection to end of the answer', []);
export const WEBHOOK_ATTEMPTS_HELD_BACK = counter('pp_webhook_attempts_held_back_total', 'Queued webhook attempts put back unclaimed because their endpoint is slow and holds its share of places', []);
export const WEBHOOK_ENDPOINTS_DISABLED = counter('pp_webhook_endpoints_disabled_total', 'Webhook endpoints disabled, by reason (gone: answered 410; failing: every attempt failed for too long)', ['reason']);

// E-mail ingest
export const INGEST_MESSAGES = counter('pp_ingest_messages_total', 'Processed transfer e-mails by outcome: confirmed, manual_review, quarantined, no_payment, not_a_notice, duplicate', ['outcome']);
export const INGEST_REVIEW_REASONS = counter('pp_ingest_review_reasons_total', 'Reasons given to e-mailed transfers sent to manual review (ReviewReason codes; other for anything else)', ['reason']);
export const INGEST_AUTHENTICATION_FAILURES = counter('pp_ingest_authentication_failures_total', 'Reasons e-mails were not accepted as sent by Interac (the code before any ":")', ['reason']);
export const INGEST_TRAILING_HAND_OFFS = gauge(
  'pp_ingest_trailing_hand_offs',
  'Hand-offs to payments still running behind posted notices already answered (at 128 a replica, answers wait for their own)',
);

// Audit trail (its recorders: the dashboard, the gateway's admin API)
export const AUDIT_ENTRIES_UNRECORDED = counter(
  'pp_audit_entries_unrecorded_total',
  'Audit entries not stored after every attempt, their action done and answered 503 (each entry is in the error log)',
);

/** Every metric above; a dashboard or alert naming a pp_ metric not listed here fails its test. */
export const METRIC_CATALOG: readonly MetricDefinition[] = [
  HTTP_REQUESTS,
  HTTP_REQUEST_DURATION,
  BUS_REQUESTS,
  BUS_REQUEST_DURATION,
  BUS_CLIENT_REQUESTS,
  BUS_CLIENT_REQUEST_DURATION,
  NATS_MESSAGES,
  KEY_LOOKUPS_REFUSED,
  IDEMPOTENCY_ANSWERS_NOT_KEPT,
  LEDGER_APPEND_DURATION,
  LEDGER_BATCH_SIZE,
  LEDGER_EVENTS,
  PUBLICATION_LAG,
  PUBLICATION_LAG_SECONDS,
  PAYMENTS_AWAITING_REVIEW,
  REFUNDS_OPEN,
  REFUNDS_OPEN_OLDEST_SECONDS,
  CONSUMER_PENDING,
  CONSUMER_ACK_PENDING,
  STREAM_FILL,
  QUEUE_JOBS,
  WEBHOOK_ATTEMPTS,
  WEBHOOK_ATTEMPT_DURATION,
  WEBHOOK_ATTEMPTS_HELD_BACK,
  WEBHOOK_ENDPOINTS_DISABLED,
  INGEST_MESSAGES,
  INGEST_REVIEW_REASONS,
  INGEST_AUTHENTICATION_FAILURES,
  INGEST_TRAILING_HAND_OFFS,
  AUDIT_ENTRIES_UNRECORDED,
];

/**
 * The series names a definition exports as Prometheus text: a histogram
 * adds _bucket, _sum and _count to its name.
 */
export const exportedSeries = (definition: MetricDefinition): string[] =>
  definition.kind === 'histogram' ? ['_bucket', '_sum', '_count'].map((suffix) => definition.name + suffix) : [definition.name];
