import {
  type AppendStreamsRequest,
  MerchantEventType,
  PaymentEventType,
  REFUND_STREAM,
  RefundEventType,
  refundStreamId,
  type StreamAppend,
  TRANSACTION_STREAM,
  transactionStreamId,
} from '@pp/contracts';

/**
 * What the refunds service may append (`ledger.append-refund-streams.v1`): a refund's own events on refund streams,
 * and a payment's refund with its merchant-visible twin on transaction streams, as its decider and the payment's
 * refund decision write them. Anything else (a payment confirmed, a session completed) is another service's to
 * decide; from the refunds identity it could only be a forgery. Streams required unchanged are read, not written,
 * and may be any.
 *
 * The read models update the rows the events' data name (a refund by `refund_id`, a payment by `payment_id`), and
 * merchant events go to the merchant of the append's metadata; so every name must agree with the stream it is on,
 * every stream with the append's merchant and mode, and a refund with the payment it was requested for. What a
 * stream already holds is read from its first event (`StoredStreams`), which never changes once written.
 */
const MAY_APPEND: Readonly<Record<string, ReadonlySet<string>>> = {
  [REFUND_STREAM]: new Set<string>(Object.values(RefundEventType)),
  [TRANSACTION_STREAM]: new Set<string>([PaymentEventType.Refunded, MerchantEventType.PaymentRefunded]),
};

/** A stream's first event, as stored: whose it is (metadata) and what it began with (data). */
export interface FirstEvent {
  data: Record<string, unknown>;
  metadata: { merchant_id?: unknown; livemode?: unknown };
}

/** First events by stream id, of the streams `storedStreamsToRead` names (absent: no such stream). */
export type StoredStreams = ReadonlyMap<string, FirstEvent>;

interface Names {
  refund_id?: unknown;
  payment_id?: unknown;
  merchant_id?: unknown;
  livemode?: unknown;
  amount?: unknown;
}

const categoryOf = (streamId: string): string => streamId.slice(0, streamId.indexOf('-'));
const idOf = (streamId: string): string => streamId.slice(streamId.indexOf('-') + 1);
const namesOf = (data: object): Names => data as Names;

/** The streams whose first event the policy needs: those written past their start, and the payments refunds are requested for. */
export function storedStreamsToRead(request: AppendStreamsRequest): string[] {
  const written = request.streams.filter((stream) => stream.expected_version > 0).map((stream) => stream.stream_id);
  const paid = request.streams.flatMap((stream) =>
    stream.events.filter((event) => event.type === RefundEventType.Requested).map((event) => namesOf(event.data).payment_id),
  );
  return [...new Set([...written, ...paid.filter((id): id is string => typeof id === 'string').map(transactionStreamId)])];
}

/** Why the refunds service may not make this append, or undefined when it may. */
export function refusalOfRefundAppend(request: AppendStreamsRequest, stored: StoredStreams): string | undefined {
  for (const stream of request.streams) {
    const category = categoryOf(stream.stream_id);
    const allowed = Object.hasOwn(MAY_APPEND, category) ? MAY_APPEND[category] : undefined;
    if (!allowed) return `The refunds service may not append to ${category} streams`;
    const refused = stream.events.find((event) => !allowed.has(event.type));
    if (refused) return `The refunds service may not append ${refused.type} to ${category} streams`;
    const refusal = refusalOfStreamScope(request, stream, stored) ?? (category === REFUND_STREAM ? refusalOfRefundEvents(request, stream, stored) : refusalOfPaymentRefund(request, stream, stored));
    if (refusal) return refusal;
  }
  return undefined;
}

/** A stream written past its start must exist, and be of the append's merchant and mode. */
function refusalOfStreamScope(request: AppendStreamsRequest, stream: StreamAppend, stored: StoredStreams): string | undefined {
  if (stream.expected_version === 0) return undefined;
  const first = stored.get(stream.stream_id);
  if (!first) return `${stream.stream_id} does not exist`;
  return isOfScope(first.metadata, request) ? undefined : `${stream.stream_id} belongs to another merchant or mode than the append`;
}

/** Each refund event names its stream's refund; a request names the append's merchant and mode and a payment of theirs, at its amount. */
function refusalOfRefundEvents(request: AppendStreamsRequest, stream: StreamAppend, stored: StoredStreams): string | undefined {
  const refundId = idOf(stream.stream_id);
  for (const { type, data } of stream.events) {
    const names = namesOf(data);
    if (names.refund_id !== refundId) return `${type} on ${stream.stream_id} must name that stream's refund`;
    if (type !== RefundEventType.Requested) continue;
    if (!isOfScope(names, request)) return `${type} on ${stream.stream_id} must name the append's merchant and mode`;
    const payment = typeof names.payment_id === 'string' ? stored.get(transactionStreamId(names.payment_id)) : undefined;
    if (!payment || !isOfScope(payment.metadata, request)) return `${type} on ${stream.stream_id} must name a payment of the append's merchant and mode`;
    if (names.amount !== payment.data.amount) return `${type} on ${stream.stream_id} must be for the payment's amount`;
  }
  return undefined;
}

/**
 * A payment's refund is the one a refund completes in the same append, as the refunds decider writes them: one
 * transaction.refunded naming the payment of its stream and a refund whose refund.completed, on that refund's own
 * stream, names the same payment, the payment that refund was requested for; and one payment.refunded (what the
 * merchant is told) naming the same payment.
 */
function refusalOfPaymentRefund(request: AppendStreamsRequest, stream: StreamAppend, stored: StoredStreams): string | undefined {
  for (const type of [PaymentEventType.Refunded, MerchantEventType.PaymentRefunded]) {
    if (stream.events.filter((event) => event.type === type).length !== 1) return `A refund's append to ${stream.stream_id} must carry one ${type}`;
  }
  const paymentId = idOf(stream.stream_id);
  const completed = completedRefunds(request);
  for (const { type, data } of stream.events) {
    const { payment_id: named, refund_id: refundId } = namesOf(data);
    if (named !== paymentId) return `${type} on ${stream.stream_id} must name that stream's payment`;
    if (type !== PaymentEventType.Refunded) continue;
    if (completed.get(refundId) !== paymentId) return `${type} on ${stream.stream_id} must come with its refund's ${RefundEventType.Completed} for that payment, in the same append`;
    if (requestedFor(request, stored, refundId as string) !== paymentId) return `${type} on ${stream.stream_id} names a refund requested for another payment`;
  }
  return undefined;
}

/** The refunds this append completes, each with the payment its refund.completed names (only on the refund's own stream). */
function completedRefunds(request: AppendStreamsRequest): Map<unknown, unknown> {
  const completed = new Map<unknown, unknown>();
  for (const stream of request.streams) {
    for (const { type, data } of stream.events) {
      const { refund_id: refundId, payment_id: paymentId } = namesOf(data);
      if (type === RefundEventType.Completed && typeof refundId === 'string' && refundStreamId(refundId) === stream.stream_id) completed.set(refundId, paymentId);
    }
  }
  return completed;
}

/** The payment a refund was requested for: in this append (test mode writes the whole flow at once), or as stored. */
function requestedFor(request: AppendStreamsRequest, stored: StoredStreams, refundId: string): unknown {
  const streamId = refundStreamId(refundId);
  const here = request.streams.find((stream) => stream.stream_id === streamId)?.events.find((event) => event.type === RefundEventType.Requested);
  return here ? namesOf(here.data).payment_id : stored.get(streamId)?.data.payment_id;
}

const isOfScope = (names: { merchant_id?: unknown; livemode?: unknown }, request: AppendStreamsRequest): boolean =>
  names.merchant_id === request.metadata.merchant_id && names.livemode === request.metadata.livemode;
