import { type Context, SpanKind } from '@opentelemetry/api';
import type { JsMsg, NatsConnection } from 'nats';
import { isWellFormedRequestId } from '../http/request-id';
import { buildHeaders, readTraceContext } from '../nats/bus-headers';
import { inSpan } from '../telemetry/in-span';
import { untrustedParent } from '../telemetry/untrusted-parent';
import { publishToStream, type StreamAck } from './publish-to-stream';

const TRACER = 'pp-jetstream';

/**
 * Publishes one message inside a producer span, child of `parent`, whose
 * trace context travels in the message's headers (traceparent), as on the
 * bus: JetStream has no instrumentation of its own. `requestId` (a ledger
 * event's correlation_id: the request that caused it) goes in x-request-id
 * as a bus call's does, so the request can be followed past the ledger;
 * only when well formed, as every receiver of the header keeps it.
 */
export function publishTraced(nc: NatsConnection, subject: string, data: Uint8Array, msgID: string, parent: Context, requestId?: string): Promise<StreamAck> {
  return inSpan(
    TRACER,
    `publish ${subject}`,
    { kind: SpanKind.PRODUCER, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject, 'messaging.message.id': msgID } },
    () => publishToStream(nc, subject, data, msgID, buildHeaders({ requestId: isWellFormedRequestId(requestId) ? requestId : undefined })),
    parent,
  );
}

export interface ConsumeTraceOptions {
  /**
   * The messages come from outside the platform (the mail relay's identity
   * publishes the raw e-mails): their trace context is taken as
   * untrustedParent takes it.
   */
  untrustedPublisher?: boolean;
}

/**
 * Handles one consumed message inside a consumer span, child of the span
 * that published it (from its headers; a message without them starts a trace).
 */
export function consumeTraced<T>(msg: JsMsg, handle: () => Promise<T>, options: ConsumeTraceOptions = {}): Promise<T> {
  const published = readTraceContext(msg.headers);
  return inSpan(
    TRACER,
    `consume ${msg.subject}`,
    { kind: SpanKind.CONSUMER, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': msg.subject, 'messaging.nats.delivery_count': msg.info.deliveryCount } },
    handle,
    options.untrustedPublisher ? untrustedParent(published) : published,
  );
}
