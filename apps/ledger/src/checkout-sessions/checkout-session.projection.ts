import {
  CheckoutSessionEventType,
  DomainError,
  ErrorCode,
  MEMO_TAKEN_RULE,
  type SessionCompletedV1,
  type SessionCreatedV1,
  type SessionExpiredV1,
  type StoredEvent,
} from '@pp/contracts';
import type { ClientBase } from 'pg';
import type { Projection } from '../projections/projection';

/** The checkout_sessions read model: one row per session, as GET /v1/checkout/sessions/:id shows it. */
export const checkoutSessionProjection: Projection = {
  name: 'checkout_sessions',
  tables: ['ledger.checkout_sessions'],
  handles: (event) => Object.values<string>(CheckoutSessionEventType).includes(event.type),

  uniqueRules: {
    checkout_sessions_reference_key: () => new DomainError(ErrorCode.Conflict, 'Reference already exists'),
    checkout_sessions_memo_key: () => new DomainError(ErrorCode.Conflict, 'Memo already in use', { rule: MEMO_TAKEN_RULE }),
  },

  async apply(db: ClientBase, event: StoredEvent): Promise<void> {
    switch (event.type) {
      case CheckoutSessionEventType.Created: {
        const s = event.data as unknown as SessionCreatedV1;
        await db.query(
          `INSERT INTO ledger.checkout_sessions (id, merchant_id, livemode, amount, currency, reference, memo, status, client_secret,
             success_url, cancel_url, metadata, expires_at, created_at, version)
           VALUES ($1, $2, $3, $4, $5, $6, $7, 'PENDING', $8, $9, $10, $11, $12, $13, $14)`,
          [
            s.session_id,
            event.metadata.merchant_id,
            event.metadata.livemode,
            s.amount,
            s.currency,
            s.reference,
            s.memo,
            s.client_secret,
            s.success_url,
            s.cancel_url,
            s.metadata === null ? null : JSON.stringify(s.metadata),
            s.expires_at,
            s.created_at,
            event.version,
          ],
        );
        return;
      }
      case CheckoutSessionEventType.Completed: {
        const s = event.data as unknown as SessionCompletedV1;
        await db.query(
          `UPDATE ledger.checkout_sessions SET status = 'COMPLETED', completed_at = $2, transaction_id = $3, version = $4 WHERE id = $1`,
          [s.session_id, s.completed_at, s.transaction_id, event.version],
        );
        return;
      }
      case CheckoutSessionEventType.Expired: {
        const s = event.data as unknown as SessionExpiredV1;
        await db.query(`UPDATE ledger.checkout_sessions SET status = 'EXPIRED', expired_at = $2, version = $3 WHERE id = $1`, [
          s.session_id,
          s.expired_at,
          event.version,
        ]);
        return;
      }
    }
  },
};
