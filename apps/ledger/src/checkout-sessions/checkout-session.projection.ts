import { CheckoutSessionEventType, type CheckoutSessionFact, DomainError, ErrorCode, MEMO_TAKEN_RULE } from '@pp/contracts';
import type { ClientBase } from 'pg';
import { type Appended, appliedInRuns, ofType, type Projection } from '../projections/projection';

/** The checkout_sessions read model: one row per session, as GET /v1/checkout/sessions/:id shows it. */
export const checkoutSessionProjection: Projection<CheckoutSessionFact> = {
  name: 'checkout_sessions',
  tables: ['ledger.checkout_sessions'],
  handles: (event) => Object.values<string>(CheckoutSessionEventType).includes(event.type),

  uniqueRules: {
    checkout_sessions_reference_key: () => new DomainError(ErrorCode.Conflict, 'Reference already exists'),
    checkout_sessions_memo_key: () => new DomainError(ErrorCode.Conflict, 'Memo already in use', { rule: MEMO_TAKEN_RULE }),
  },

  ...appliedInRuns((event) => event.data.session_id, applyRun),
};

/** One statement for events of one type, each about a different session. */
async function applyRun(db: ClientBase, run: readonly Appended<CheckoutSessionFact>[]): Promise<void> {
  switch (run[0].type) {
    case CheckoutSessionEventType.Created: {
      const sessions = ofType(run, CheckoutSessionEventType.Created).map((event) => ({ event, s: event.data }));
      await db.query(
        `INSERT INTO ledger.checkout_sessions (id, merchant_id, livemode, amount, currency, reference, memo, status, client_secret,
           success_url, cancel_url, metadata, expires_at, created_at, version)
         SELECT id, merchant_id, livemode, amount, currency, reference, memo, 'PENDING', client_secret,
           success_url, cancel_url, metadata, expires_at, created_at, version
         FROM unnest($1::text[], $2::text[], $3::boolean[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::text[],
           $9::text[], $10::text[], $11::jsonb[], $12::timestamptz[], $13::timestamptz[], $14::int[])
           AS s(id, merchant_id, livemode, amount, currency, reference, memo, client_secret,
             success_url, cancel_url, metadata, expires_at, created_at, version)`,
        [
          sessions.map(({ s }) => s.session_id),
          sessions.map(({ event }) => event.metadata.merchant_id),
          sessions.map(({ event }) => event.metadata.livemode),
          sessions.map(({ s }) => s.amount),
          sessions.map(({ s }) => s.currency),
          sessions.map(({ s }) => s.reference),
          sessions.map(({ s }) => s.memo),
          sessions.map(({ s }) => s.client_secret),
          sessions.map(({ s }) => s.success_url),
          sessions.map(({ s }) => s.cancel_url),
          sessions.map(({ s }) => (s.metadata === null ? null : JSON.stringify(s.metadata))),
          sessions.map(({ s }) => s.expires_at),
          sessions.map(({ s }) => s.created_at),
          sessions.map(({ event }) => event.version),
        ],
      );
      return;
    }
    case CheckoutSessionEventType.Completed: {
      const completed = ofType(run, CheckoutSessionEventType.Completed).map((event) => ({ event, s: event.data }));
      await db.query(
        `UPDATE ledger.checkout_sessions c SET status = 'COMPLETED', completed_at = u.completed_at, transaction_id = u.transaction_id, version = u.version
         FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::int[]) AS u(id, completed_at, transaction_id, version)
         WHERE c.id = u.id`,
        [
          completed.map(({ s }) => s.session_id),
          completed.map(({ s }) => s.completed_at),
          completed.map(({ s }) => s.transaction_id),
          completed.map(({ event }) => event.version),
        ],
      );
      return;
    }
    case CheckoutSessionEventType.Expired: {
      const expired = ofType(run, CheckoutSessionEventType.Expired).map((event) => ({ event, s: event.data }));
      await db.query(
        `UPDATE ledger.checkout_sessions c SET status = 'EXPIRED', expired_at = u.expired_at, version = u.version
         FROM unnest($1::text[], $2::timestamptz[], $3::int[]) AS u(id, expired_at, version)
         WHERE c.id = u.id`,
        [expired.map(({ s }) => s.session_id), expired.map(({ s }) => s.expired_at), expired.map(({ event }) => event.version)],
      );
      return;
    }
    case CheckoutSessionEventType.ExpiryExtended: {
      // The new deadline is what the sweeper and the payer's page read.
      const extended = ofType(run, CheckoutSessionEventType.ExpiryExtended).map((event) => ({ event, s: event.data }));
      await db.query(
        `UPDATE ledger.checkout_sessions c SET expires_at = u.expires_at, version = u.version
         FROM unnest($1::text[], $2::timestamptz[], $3::int[]) AS u(id, expires_at, version)
         WHERE c.id = u.id`,
        [extended.map(({ s }) => s.session_id), extended.map(({ s }) => s.expires_at), extended.map(({ event }) => event.version)],
      );
      return;
    }
  }
}
