import { type PaymentFact, PaymentEventType } from '@pp/contracts';
import type { ClientBase } from 'pg';
import { type Appended, appliedInRuns, ofType, type Projection } from '../projections/projection';

/** The payments read model: one row per transaction, as GET /v1/payments lists it. */
export const paymentProjection: Projection<PaymentFact> = {
  name: 'payments',
  tables: ['ledger.payments'],
  handles: (event) => Object.values<string>(PaymentEventType).includes(event.type),

  ...appliedInRuns((event) => event.data.payment_id, applyRun),
};

/** One statement for events of one type, each about a different payment (a new payment's position is its event's, read from ledger.events). */
async function applyRun(db: ClientBase, run: readonly Appended<PaymentFact>[]): Promise<void> {
  switch (run[0].type) {
    case PaymentEventType.Recorded: {
      const recorded = ofType(run, PaymentEventType.Recorded).map((event) => ({ event, p: event.data }));
      await db.query(
        `INSERT INTO ledger.payments (id, position, merchant_id, livemode, session_id, session_reference, etransfer_ref, amount,
           sender_name, sender_email, comment, status, verification_method, review_reasons, email_id, reference_number,
           created_at, updated_at, version)
         SELECT p.id, e.position, merchant_id, livemode, session_id, session_reference, etransfer_ref, amount,
           sender_name, sender_email, comment, status, verification_method,
           -- unnest flattens arrays of arrays, so each payment's reasons travel as one JSON array
           ARRAY(SELECT reason FROM jsonb_array_elements_text(review_reasons) WITH ORDINALITY AS r(reason, n) ORDER BY n),
           email_id, reference_number,
           p.created_at, p.created_at, p.version
         FROM unnest($1::text[], $2::text[], $3::text[], $4::boolean[], $5::text[], $6::text[], $7::text[], $8::bigint[],
           $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::jsonb[], $15::text[], $16::text[],
           $17::timestamptz[], $18::int[])
           AS p(id, event_id, merchant_id, livemode, session_id, session_reference, etransfer_ref, amount,
             sender_name, sender_email, comment, status, verification_method, review_reasons, email_id, reference_number,
             created_at, version)
         JOIN ledger.events e ON e.id = p.event_id`,
        [
          recorded.map(({ p }) => p.payment_id),
          recorded.map(({ event }) => event.id),
          recorded.map(({ p }) => p.merchant_id),
          recorded.map(({ p }) => p.livemode),
          recorded.map(({ p }) => p.session_id),
          recorded.map(({ p }) => p.session_reference),
          recorded.map(({ p }) => p.etransfer_ref),
          recorded.map(({ p }) => p.amount),
          recorded.map(({ p }) => p.sender_name),
          recorded.map(({ p }) => p.sender_email),
          recorded.map(({ p }) => p.comment),
          recorded.map(({ p }) => p.status),
          recorded.map(({ p }) => p.verification_method),
          recorded.map(({ p }) => JSON.stringify(p.review_reasons)),
          recorded.map(({ p }) => p.email_id),
          recorded.map(({ p }) => p.reference_number),
          recorded.map(({ p }) => p.created_at),
          recorded.map(({ event }) => event.version),
        ],
      );
      return;
    }
    case PaymentEventType.Verified: {
      const verified = ofType(run, PaymentEventType.Verified).map((event) => ({ event, v: event.data }));
      await db.query(
        `UPDATE ledger.payments p SET status = 'CONFIRMED', verification_method = 'MANUAL_ADMIN', verified_by = u.verified_by,
           updated_at = u.verified_at, version = u.version
         FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::int[]) AS u(id, verified_by, verified_at, version)
         WHERE p.id = u.id`,
        [
          verified.map(({ v }) => v.payment_id),
          verified.map(({ v }) => v.verified_by),
          verified.map(({ v }) => v.verified_at),
          verified.map(({ event }) => event.version),
        ],
      );
      return;
    }
    case PaymentEventType.Refunded: {
      const refunded = ofType(run, PaymentEventType.Refunded).map((event) => ({ event, r: event.data }));
      await db.query(
        `UPDATE ledger.payments p SET status = 'REFUNDED', updated_at = u.refunded_at, version = u.version
         FROM unnest($1::text[], $2::timestamptz[], $3::int[]) AS u(id, refunded_at, version)
         WHERE p.id = u.id`,
        [refunded.map(({ r }) => r.payment_id), refunded.map(({ r }) => r.refunded_at), refunded.map(({ event }) => event.version)],
      );
      return;
    }
  }
}
