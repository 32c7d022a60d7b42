import {
  type Aggregate,
  DomainError,
  ErrorCode,
  REFUND_STAGE_RULE,
  type RefundEvent,
  RefundEventType,
  type RefundStatus,
  type RefundView,
  refundStreamId,
} from '@pp/contracts';

/*
 * The refund aggregate as a pure decider (PRODUCT-RULES §2.5, §3.3; stages in
 * libs/contracts refunds/refund.views.ts):
 *
 *   (none)    --request-->   REQUESTED   (test mode: REQUESTED, APPROVED, SENT, COMPLETED at once)
 *   REQUESTED --approve-->   APPROVED    --mark-sent--> SENT --complete--> COMPLETED
 *   REQUESTED | APPROVED --reject--> REJECTED           SENT --fail-->     FAILED
 *   REQUESTED --cancel-->    CANCELLED
 *
 * The merchant may withdraw a refund only until the operator approves it:
 * from then on the operator may be sending the money, and a cancel between
 * the bank transfer and "mark sent" would free the payment for a second
 * refund with the first one's money gone. For the same reason "mark sent"
 * is the operator's claim, taken before the money moves (PRODUCT-RULES
 * §3.3): once SENT the refund can no longer be rejected, so two operators
 * cannot one send while the other rejects. An approved refund that should
 * not go out after all is rejected while unclaimed; a claimed one whose
 * transfer could not be made is failed with the reason.
 *
 * A command repeated on the stage it leads to decides nothing (a double click,
 * a retry after a lost answer); `complete` only when its outbound reference is
 * the one recorded, and `mark_sent` only from the operator who holds the
 * claim: another operator's is refused naming the holder, so two operators
 * who both had the APPROVED refund open cannot both believe they may send the
 * money. A SENT refund is failed by its holder only, until the claim is a
 * day old: another operator cannot know whether the holder's transfer is
 * going out, and a "failed" frees the payment for a second refund. After
 * that the claim counts as abandoned (an Interac transfer goes out in
 * minutes; the holder may have left, or the ADMIN_TOKEN that named them been
 * rotated), and any operator may fail it. Anyone may complete it: a
 * completion names the bank transfer, and frees nothing. Every other stage change is refused with
 * 'Refund is <STAGE>; it cannot be <verb>'. Whether the payment may be
 * refunded (CONFIRMED, no other refund holding it) is decided elsewhere: by
 * the payment aggregate and the read model's unique index, in the same append.
 */

/**
 * The refund as its stream tells it: the view without created_at, which is requested_at on the wire, and with
 * who claimed it (mark sent), which the view leaves out: merchants see no operator's id.
 */
export type Refund = Omit<RefundView, 'created_at'> & { sent_by: string | null };

export type RefundState = Refund | null;

/** What the decider needs of the payment being refunded. */
export interface RefundablePayment {
  id: string;
  merchant_id: string;
  livemode: boolean;
  amount: number;
}

export type RefundCommand =
  | { kind: 'request'; refundId: string; payment: RefundablePayment; requestedBy: string; reason: string | null; now: Date }
  | { kind: 'approve'; by: string; now: Date }
  | { kind: 'reject'; by: string; rejectionReason: string; now: Date }
  | { kind: 'mark_sent'; by: string; now: Date }
  | { kind: 'complete'; by: string; outboundReference: string; evidenceNote: string; now: Date }
  | { kind: 'fail'; by: string; failureReason: string; now: Date }
  | { kind: 'cancel'; by: string; now: Date };

/** How long a SENT refund's claim is its holder's alone to fail (see above). */
export const CLAIM_ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;

/** When a claimed refund's claim counts as abandoned, and any operator may fail it (epoch ms); null when unclaimed. */
const claimFreeAt = (state: Refund): number | null => (state.sent_at === null ? null : Date.parse(state.sent_at) + CLAIM_ABANDONED_AFTER_MS);

/** Who moves a test-mode refund through its stages (PRODUCT-RULES §3.3: auto-approval). */
export const TEST_MODE_ACTOR = 'system:test_mode';

const VERB: Record<Exclude<RefundCommand['kind'], 'request'>, string> = {
  approve: 'approved',
  reject: 'rejected',
  mark_sent: 'marked sent',
  complete: 'completed',
  fail: 'marked failed',
  cancel: 'cancelled',
};

/** The stage each command starts from, and the one it leads to. */
const TRANSITION: Record<Exclude<RefundCommand['kind'], 'request'>, { from: readonly RefundStatus[]; to: RefundStatus }> = {
  approve: { from: ['REQUESTED'], to: 'APPROVED' },
  reject: { from: ['REQUESTED', 'APPROVED'], to: 'REJECTED' },
  mark_sent: { from: ['APPROVED'], to: 'SENT' },
  complete: { from: ['SENT'], to: 'COMPLETED' },
  fail: { from: ['SENT'], to: 'FAILED' },
  cancel: { from: ['REQUESTED'], to: 'CANCELLED' },
};

/** A stage change §3.3 does not allow: CONFLICT with details.rule = 'refund_stage'. */
export class RefundStageRefused extends DomainError {
  constructor(from: RefundStatus, command: RefundCommand['kind'], message = `Refund is ${from}; it cannot be ${VERB[command as keyof typeof VERB]}`) {
    super(ErrorCode.Conflict, message, { rule: REFUND_STAGE_RULE, from, command });
  }
}

export function decide(state: RefundState, command: RefundCommand): RefundEvent[] {
  if (command.kind === 'request') {
    if (state) throw new DomainError(ErrorCode.Conflict, 'Refund already exists');
    return requestEvents(command);
  }
  if (!state) throw new DomainError(ErrorCode.NotFound, 'Refund not found');
  const { from, to } = TRANSITION[command.kind];
  if (state.status === to) {
    if (command.kind === 'complete') {
      const reference = required(command.outboundReference, 'outbound_reference');
      // A test refund completed at once, with no reference: there is no other one to name.
      if (state.outbound_reference === null) throw new RefundStageRefused(state.status, command.kind);
      if (!sameOutboundReference(state.outbound_reference, reference)) {
        throw new RefundStageRefused(state.status, command.kind, 'Refund is COMPLETED with another outbound_reference');
      }
    }
    if (command.kind === 'mark_sent' && state.sent_by !== command.by) {
      throw new RefundStageRefused(state.status, command.kind, `Refund is SENT; it is already claimed by ${state.sent_by}`);
    }
    return [];
  }
  if (!from.includes(state.status)) throw new RefundStageRefused(state.status, command.kind);
  const freeAt = claimFreeAt(state);
  if (command.kind === 'fail' && state.sent_by !== command.by && freeAt !== null && command.now.getTime() < freeAt) {
    const until = new Date(freeAt).toISOString();
    throw new RefundStageRefused(state.status, command.kind, `Refund is SENT; it is claimed by ${state.sent_by}, who alone can fail it until ${until}`);
  }
  const at = command.now.toISOString();
  switch (command.kind) {
    case 'approve':
      return [event(RefundEventType.Approved, { refund_id: state.id, approved_by: command.by, approved_at: at })];
    case 'reject':
      return [
        event(RefundEventType.Rejected, {
          refund_id: state.id,
          rejected_by: command.by,
          rejection_reason: required(command.rejectionReason, 'rejection_reason'),
          rejected_at: at,
        }),
      ];
    case 'mark_sent':
      return [event(RefundEventType.Sent, { refund_id: state.id, sent_by: command.by, sent_at: at })];
    case 'complete':
      return [
        event(RefundEventType.Completed, {
          refund_id: state.id,
          payment_id: state.payment_id,
          completed_by: command.by,
          outbound_reference: required(command.outboundReference, 'outbound_reference'),
          evidence_note: required(command.evidenceNote, 'evidence_note'),
          completed_at: at,
        }),
      ];
    case 'fail':
      return [
        event(RefundEventType.Failed, {
          refund_id: state.id,
          failed_by: command.by,
          failure_reason: required(command.failureReason, 'failure_reason'),
          failed_at: at,
        }),
      ];
    case 'cancel':
      return [event(RefundEventType.Cancelled, { refund_id: state.id, cancelled_by: command.by, cancelled_at: at })];
  }
}

/** REQUESTED; in test mode the whole flow at once, so no test refund is ever left half-way and none needs an admin. */
function requestEvents(command: Extract<RefundCommand, { kind: 'request' }>): RefundEvent[] {
  const at = command.now.toISOString();
  const reason = command.reason?.trim() || null;
  const requested = event(RefundEventType.Requested, {
    refund_id: command.refundId,
    payment_id: command.payment.id,
    merchant_id: command.payment.merchant_id,
    livemode: command.payment.livemode,
    amount: command.payment.amount,
    requested_by: command.requestedBy,
    reason,
    requested_at: at,
  });
  if (command.payment.livemode) return [requested];
  const id = command.refundId;
  return [
    requested,
    event(RefundEventType.Approved, { refund_id: id, approved_by: TEST_MODE_ACTOR, approved_at: at }),
    event(RefundEventType.Sent, { refund_id: id, sent_by: TEST_MODE_ACTOR, sent_at: at }),
    event(RefundEventType.Completed, {
      refund_id: id,
      payment_id: command.payment.id,
      completed_by: TEST_MODE_ACTOR,
      outbound_reference: null,
      evidence_note: null,
      completed_at: at,
    }),
  ];
}

export function evolve(state: RefundState, event: RefundEvent): RefundState {
  if (event.type === RefundEventType.Requested) {
    const r = event.data;
    return {
      id: r.refund_id,
      payment_id: r.payment_id,
      merchant_id: r.merchant_id,
      livemode: r.livemode,
      amount: r.amount,
      status: 'REQUESTED',
      requested_by: r.requested_by,
      reason: r.reason,
      outbound_reference: null,
      evidence_note: null,
      rejection_reason: null,
      failure_reason: null,
      requested_at: r.requested_at,
      approved_at: null,
      rejected_at: null,
      sent_at: null,
      sent_by: null,
      completed_at: null,
      failed_at: null,
      cancelled_at: null,
    };
  }
  if (!state) return state;
  switch (event.type) {
    case RefundEventType.Approved:
      return { ...state, status: 'APPROVED', approved_at: event.data.approved_at };
    case RefundEventType.Rejected:
      return { ...state, status: 'REJECTED', rejection_reason: event.data.rejection_reason, rejected_at: event.data.rejected_at };
    case RefundEventType.Sent:
      return { ...state, status: 'SENT', sent_at: event.data.sent_at, sent_by: event.data.sent_by };
    case RefundEventType.Completed: {
      const c = event.data;
      return { ...state, status: 'COMPLETED', outbound_reference: c.outbound_reference, evidence_note: c.evidence_note, completed_at: c.completed_at };
    }
    case RefundEventType.Failed:
      return { ...state, status: 'FAILED', failure_reason: event.data.failure_reason, failed_at: event.data.failed_at };
    case RefundEventType.Cancelled:
      return { ...state, status: 'CANCELLED', cancelled_at: event.data.cancelled_at };
    default:
      return state;
  }
}

export const fold = (events: readonly RefundEvent[], initial: RefundState = null): RefundState => events.reduce(evolve, initial);

/** The refund aggregate as the runtime loads it (libs/platform aggregate/). */
export const refundAggregate: Aggregate<RefundState, RefundEvent> = { streamId: refundStreamId, initial: null, evolve };

/**
 * One bank transfer's reference however it is spelt (PRODUCT-RULES §3.3): its
 * letters and digits, upper case, so `ca 77` or `CA-77` retries a completion
 * with `CA77`. The read model's unique index, which keeps the reference to one
 * refund, compares the same form (migration 1767225600018); the edge admits
 * only ASCII letters, digits, whitespace and `. _ / -`, where JavaScript and
 * Postgres upper-case alike.
 */
const outboundReferenceKey = (reference: string): string => reference.replace(/[\s._/-]/g, '').toUpperCase();

const sameOutboundReference = (stored: string | null, given: string): boolean => stored !== null && outboundReferenceKey(stored) === outboundReferenceKey(given);

/** Free text an admin must give: trimmed, non-empty (also checked at the edge; the bus may carry other callers). */
function required(value: string | undefined, field: string): string {
  const text = value?.trim() ?? '';
  if (text === '') throw new DomainError(ErrorCode.ValidationFailed, `Validation failed: ${field} is required`);
  return text;
}

/** A refund event at schema version 1, typed by its `type`. */
const event = <T extends RefundEventType>(type: T, data: Extract<RefundEvent, { type: T }>['data']): RefundEvent =>
  ({ type, schema_version: 1, data: { ...data } }) as RefundEvent;
