import { type Context, SpanKind } from '@opentelemetry/api';
import type { JsMsg, NatsConnection } from 'nats';
import { buildHeaders, readTraceContext } from '../nats/bus-headers';
import { inSpan } from '../telemetry/in-span';
import { untrustedParent } from '../telemetry/untrusted-parent';
import { publishToStream, type StreamAck } from './publish-to-stream';

const TRACER = 'pp-jetstream';

/**
 * Publishes one message inside a producer span, child of `parent`, whose
 * trace context travels in the message's headers (traceparent), as on the
 * bus: JetStream has no instrumentation of its own.
 */
export function publishTraced(nc: NatsConnection, subject: string, data: Uint8Array, msgID: string, parent: Context): Promise<StreamAck> {
  return inSpan(
    TRACER,
    `publish ${subject}`,
    { kind: SpanKind.PRODUCER, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject, 'messaging.message.id': msgID } },
    () => publishToStream(nc, subject, data, msgID, buildHeaders({})),
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
