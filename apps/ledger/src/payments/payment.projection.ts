import { type PaymentFact, PaymentEventType, type Stored } from '@pp/contracts';
import type { ClientBase } from 'pg';
import type { Projection } from '../projections/projection';

/** The payments read model: one row per transaction, as GET /v1/payments lists it. */
export const paymentProjection: Projection<PaymentFact> = {
  name: 'payments',
  tables: ['ledger.payments'],
  handles: (event) => Object.values<string>(PaymentEventType).includes(event.type),

  async apply(db: ClientBase, event: Stored<PaymentFact>): Promise<void> {
    switch (event.type) {
      case PaymentEventType.Recorded: {
        const p = event.data;
        await db.query(
          `INSERT INTO ledger.payments (id, position, merchant_id, livemode, session_id, session_reference, etransfer_ref, amount,
             sender_name, sender_email, comment, status, verification_method, review_reasons, email_id, reference_number,
             created_at, updated_at, version)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $17, $18)`,
          [
            p.payment_id,
            event.position,
            p.merchant_id,
            p.livemode,
            p.session_id,
            p.session_reference,
            p.etransfer_ref,
            p.amount,
            p.sender_name,
            p.sender_email,
            p.comment,
            p.status,
            p.verification_method,
            p.review_reasons,
            p.email_id,
            p.reference_number,
            p.created_at,
            event.version,
          ],
        );
        return;
      }
      case PaymentEventType.Verified: {
        const v = event.data;
        await db.query(
          `UPDATE ledger.payments SET status = 'CONFIRMED', verification_method = 'MANUAL_ADMIN', verified_by = $2, updated_at = $3, version = $4
           WHERE id = $1`,
          [v.payment_id, v.verified_by, v.verified_at, event.version],
        );
        return;
      }
      case PaymentEventType.Refunded: {
        const r = event.data;
        await db.query(`UPDATE ledger.payments SET status = 'REFUNDED', updated_at = $2, version = $3 WHERE id = $1`, [
          r.payment_id,
          r.refunded_at,
          event.version,
        ]);
        return;
      }
    }
  },
};
