import { checkoutSessionStreamId, type StreamAppend } from '@pp/contracts';
import { type CheckoutSession, decide } from '../checkout-session/checkout-session.decider';

/** The session's part of the append that confirms `paymentId`: its completion, at the version it was loaded at. */
export function sessionCompletion(session: CheckoutSession, version: number, now: Date, paymentId: string): StreamAppend {
  return {
    stream_id: checkoutSessionStreamId(session.id),
    expected_version: version,
    events: decide(session, { kind: 'complete', now, transactionId: paymentId }),
  };
}
