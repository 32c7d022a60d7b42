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
 */
const MAY_APPEND: Readonly<Record<string, ReadonlySet<string>>> = {
  [REFUND_STREAM]: new Set<string>(Object.values(RefundEventType)),
  [TRANSACTION_STREAM]: new Set<string>([PaymentEventType.Refunded, MerchantEventType.PaymentRefunded]),
};

/** Why the refunds service may not make this append, or undefined when it may. */
export function refusalOfRefundAppend(request: AppendStreamsRequest): string | undefined {
  for (const stream of request.streams) {
    const category = stream.stream_id.slice(0, stream.stream_id.indexOf('-'));
    const allowed = Object.hasOwn(MAY_APPEND, category) ? MAY_APPEND[category] : undefined;
    if (!allowed) return `The refunds service may not append to ${category} streams`;
    const refused = stream.events.find((event) => !allowed.has(event.type));
    if (refused) return `The refunds service may not append ${refused.type} to ${category} streams`;
    if (category === TRANSACTION_STREAM) {
      const refusal = refusalOfPaymentRefund(stream, completedRefunds(request));
      if (refusal) return refusal;
    }
  }
  return undefined;
}

interface PaymentAndRefund {
  payment_id?: unknown;
  refund_id?: unknown;
}

/**
 * A payment's refund is the one a refund completes in the same append, as the refunds decider writes them: its
 * transaction.refunded names the payment of its stream and a refund whose refund.completed, on that refund's own
 * stream, names the same payment; payment.refunded (what the merchant is told) names the payment of its stream and
 * comes with it. The read models update the payment the data names, so the data must agree with the stream.
 */
function refusalOfPaymentRefund(stream: StreamAppend, completed: ReadonlyMap<unknown, unknown>): string | undefined {
  const refunded = stream.events.filter((event) => event.type === PaymentEventType.Refunded);
  if (refunded.length !== 1) return `A refund's append to ${stream.stream_id} must carry one ${PaymentEventType.Refunded}`;
  for (const { type, data } of stream.events) {
    const { payment_id: paymentId, refund_id: refundId } = data as PaymentAndRefund;
    if (typeof paymentId !== 'string' || transactionStreamId(paymentId) !== stream.stream_id) return `${type} on ${stream.stream_id} must name that stream's payment`;
    if (type === PaymentEventType.Refunded && completed.get(refundId) !== paymentId) {
      return `${type} on ${stream.stream_id} must come with its refund's ${RefundEventType.Completed} for that payment, in the same append`;
    }
  }
  return undefined;
}

/** The refunds this append completes, each with the payment its refund.completed names (only on the refund's own stream). */
function completedRefunds(request: AppendStreamsRequest): Map<unknown, unknown> {
  const completed = new Map<unknown, unknown>();
  for (const stream of request.streams) {
    for (const { type, data } of stream.events) {
      const { refund_id: refundId, payment_id: paymentId } = data as PaymentAndRefund;
      if (type === RefundEventType.Completed && typeof refundId === 'string' && refundStreamId(refundId) === stream.stream_id) completed.set(refundId, paymentId);
    }
  }
  return completed;
}
