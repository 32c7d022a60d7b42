import { type Context, SpanKind } from '@opentelemetry/api';
import type { JetStreamClient, JetStreamPublishOptions, JsMsg, PubAck } from 'nats';
import { buildHeaders, readHeaders } from '../nats/bus-headers';
import { inSpan } from '../telemetry/in-span';

const TRACER = 'pp-jetstream';

/**
 * Publishes one message inside a producer span, child of `parent`, whose
 * trace context travels in the message's headers (traceparent), as on the
 * bus: JetStream has no instrumentation of its own.
 */
export function publishTraced(
  js: JetStreamClient,
  subject: string,
  data: string | Uint8Array,
  options: Partial<JetStreamPublishOptions>,
  parent: Context,
): Promise<PubAck> {
  return inSpan(
    TRACER,
    `publish ${subject}`,
    { kind: SpanKind.PRODUCER, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject, ...(options.msgID ? { 'messaging.message.id': options.msgID } : {}) } },
    () => js.publish(subject, data, { ...options, headers: buildHeaders({}) }),
    parent,
  );
}

/**
 * Handles one consumed message inside a consumer span, child of the span
 * that published it (from its headers; a message without them starts a trace).
 */
export function consumeTraced<T>(msg: JsMsg, handle: () => Promise<T>): Promise<T> {
  return inSpan(
    TRACER,
    `consume ${msg.subject}`,
    { kind: SpanKind.CONSUMER, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': msg.subject, 'messaging.nats.delivery_count': msg.info.deliveryCount } },
    handle,
    readHeaders(msg.headers).traceContext,
  );
}
