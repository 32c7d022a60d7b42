import { checkoutSessionStreamId, type StreamAppend, type UnchangedStream } from '@pp/contracts';
import { type CheckoutSession, decide } from '../checkout-session/checkout-session.decider';

/** The session's part of a payment's append: the streams it appends to, and those it must find as loaded. */
export interface SessionPart {
  append: StreamAppend[];
  unchanged: UnchangedStream[];
}

/**
 * What a payment's append does to its session, loaded at `version`: a
 * payment that completes it appends the completion at that version, so two
 * payments can never both complete one session; any other rests on the
 * session as loaded (open, expired, or paid by another), so a copy this
 * replica remembered, or a state another payment moved since, cannot decide
 * it. Whether the payment completes the session is its caller's rule (the
 * simulator's outcome, the transfer-match policy, a verification of an open
 * session).
 */
export function sessionPart(session: CheckoutSession | null, version: number, now: Date, paymentId: string, completes: boolean): SessionPart {
  // A payment with no session (a transfer whose memo names none) leaves no part in any session's stream.
  if (!session) return { append: [], unchanged: [] };
  const stream_id = checkoutSessionStreamId(session.id);
  if (!completes) return { append: [], unchanged: [{ stream_id, version }] };
  return { append: [{ stream_id, expected_version: version, events: decide(session, { kind: 'complete', now, transactionId: paymentId }) }], unchanged: [] };
}
