import { checkoutSessionStreamId, type StreamAppend } from '@pp/contracts';
import { type CheckoutSession, decide } from '../checkout-session/checkout-session.decider';

/** Whether a payment arriving `now` may still complete the session (SPEC §3.1: PENDING and not expired). */
export const isOpen = (session: CheckoutSession, now: Date): boolean =>
  session.status === 'PENDING' && now.getTime() < Date.parse(session.expires_at);

/** The session's part of the append that confirms `paymentId`: its completion, at the version it was loaded at. */
export function sessionCompletion(session: CheckoutSession, version: number, now: Date, paymentId: string): StreamAppend {
  return {
    stream_id: checkoutSessionStreamId(session.id),
    expected_version: version,
    events: decide(session, { kind: 'complete', now, transactionId: paymentId }),
  };
}
