import { DomainError, ErrorCode, OUTBOUND_REFERENCE_USED_RULE, REFUND_OPEN_RULE, type RefundEvent, RefundEventType } from '@pp/contracts';
import type { ClientBase } from 'pg';
import type { Appended, Projection } from '../projections/projection';

export const REFUND_ALREADY_OPEN = 'A refund is already open for this payment';
export const OUTBOUND_REFERENCE_USED = 'This outbound_reference already completed another refund';

/** The stage columns each later event sets (status and its timestamp, plus the inputs it carries). */
function stageUpdate(event: Appended<RefundEvent>): { status: string; columns: Record<string, unknown> } | undefined {
  switch (event.type) {
    case RefundEventType.Approved:
      return { status: 'APPROVED', columns: { approved_at: event.data.approved_at } };
    case RefundEventType.Rejected: {
      const r = event.data;
      return { status: 'REJECTED', columns: { rejected_at: r.rejected_at, rejection_reason: r.rejection_reason } };
    }
    case RefundEventType.Sent:
      return { status: 'SENT', columns: { sent_at: event.data.sent_at } };
    case RefundEventType.Completed: {
      const c = event.data;
      return { status: 'COMPLETED', columns: { completed_at: c.completed_at, outbound_reference: c.outbound_reference, evidence_note: c.evidence_note } };
    }
    case RefundEventType.Failed: {
      const f = event.data;
      return { status: 'FAILED', columns: { failed_at: f.failed_at, failure_reason: f.failure_reason } };
    }
    case RefundEventType.Cancelled:
      return { status: 'CANCELLED', columns: { cancelled_at: event.data.cancelled_at } };
    default:
      return undefined;
  }
}

/** The refunds read model: one row per refund, as GET /v1/refunds shows it; its unique indexes hold one refund per payment and one live refund per outbound reference. */
export const refundProjection: Projection<RefundEvent> = {
  name: 'refunds',
  tables: ['ledger.refunds'],
  handles: (event) => Object.values<string>(RefundEventType).includes(event.type),

  uniqueRules: {
    refunds_one_per_payment: () => new DomainError(ErrorCode.Conflict, REFUND_ALREADY_OPEN, { rule: REFUND_OPEN_RULE }),
    refunds_one_per_outbound_reference: () => new DomainError(ErrorCode.Conflict, OUTBOUND_REFERENCE_USED, { rule: OUTBOUND_REFERENCE_USED_RULE }),
  },

  async apply(db: ClientBase, event: Appended<RefundEvent>): Promise<void> {
    if (event.type === RefundEventType.Requested) {
      const r = event.data;
      await db.query(
        `INSERT INTO ledger.refunds (id, position, merchant_id, livemode, payment_id, amount, status, requested_by, reason, requested_at, version)
         VALUES ($1, (SELECT position FROM ledger.events WHERE id = $2), $3, $4, $5, $6, 'REQUESTED', $7, $8, $9, $10)`,
        [r.refund_id, event.id, r.merchant_id, r.livemode, r.payment_id, r.amount, r.requested_by, r.reason, r.requested_at, event.version],
      );
      return;
    }
    const update = stageUpdate(event);
    if (!update) return;
    const names = Object.keys(update.columns);
    await db.query(
      `UPDATE ledger.refunds SET status = $2, version = $3, ${names.map((name, i) => `${name} = $${i + 4}`).join(', ')} WHERE id = $1`,
      [event.data.refund_id, update.status, event.version, ...Object.values(update.columns)],
    );
  },
};
