import { type AppendStreamsRequest, MerchantEventType, PaymentEventType, REFUND_STREAM, RefundEventType, TRANSACTION_STREAM } from '@pp/contracts';

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
  }
  return undefined;
}
