import { checkoutSessionStreamId, type StreamAppend, type UnchangedStream } from '@pp/contracts';
import { type CheckoutSession, decide } from '../checkout-session/checkout-session.decider';

/** The session's part of a payment's append: the streams it appends to, those it must find as loaded, and when it must commit by. */
export interface SessionPart {
  append: StreamAppend[];
  unchanged: UnchangedStream[];
  /** A completion's: the session's deadline (the append's `commit_before`). */
  commitBefore?: Date;
}

/**
 * What a payment's append does to its session, loaded at `version`: a
 * payment that completes it appends the completion at that version, so two
 * payments can never both complete one session; any other rests on the
 * session as loaded (open, expired, or paid by another), so a copy this
 * replica remembered, or a state another payment moved since, cannot decide
 * it; a completion must also commit before the session's deadline. Whether
 * the payment completes the session is its caller's rule (the simulator's
 * outcome, the transfer-match policy, a verification of an open session).
 */
export function sessionPart(session: CheckoutSession | null, version: number, now: Date, paymentId: string, completes: boolean): SessionPart {
  // A payment with no session (a transfer whose memo names none) leaves no part in any session's stream.
  if (!session) return { append: [], unchanged: [] };
  const stream_id = checkoutSessionStreamId(session.id);
  if (!completes) return { append: [], unchanged: [{ stream_id, version }] };
  const events = decide(session, { kind: 'complete', now, transactionId: paymentId });
  // Decided open before the deadline, the completion must also commit before it: from the deadline on, readers see
  // the session EXPIRED, and a completion committed later would undo what they saw. Refused then, the payment is
  // decided again on an expired session (review, or the simulator's 409).
  return { append: [{ stream_id, expected_version: version, events }], unchanged: [], ...(events.length > 0 ? { commitBefore: new Date(session.expires_at) } : {}) };
}
