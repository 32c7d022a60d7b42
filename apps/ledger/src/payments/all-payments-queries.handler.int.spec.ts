import { DomainError, ErrorCode, type ListAllPaymentsQuery } from '@pp/contracts';
import { createTestDatabase, testPool, type TestDatabase } from '@pp/testing';
import type { Pool } from 'pg';
import { AllPaymentsQueriesHandler } from './all-payments-queries.handler';

/*
 * ledger.payments.list-all.v1 (platform admins): a starting_after outside the
 * merchant and mode asked for is NOT_FOUND, as the contract says, rather than
 * a position taken from another merchant's payment that pages this one's
 * list from an arbitrary point. A cursor in scope still pages, even once its
 * payment has left the status being listed.
 */
describe('payments across merchants, paged by a cursor', () => {
  let database: TestDatabase;
  /** The superuser's, for set-up. */
  let db: Pool;
  /** The ledger role's, as the service queries. */
  let ledger: Pool;
  let handler: AllPaymentsQueriesHandler;

  beforeAll(async () => {
    database = await createTestDatabase('adminpayments');
    await database.migrate('ledger');
    db = testPool(database.url, 1);
    ledger = testPool(database.serviceUrl('ledger'), 1);
    handler = new AllPaymentsQueriesHandler(ledger);
    // Interleaved: odd positions are mer_a's (live), even ones mer_b's (live); position 7 is mer_a's in test mode;
    // mer_a's position 3 is no longer under review.
    await db.query(
      `INSERT INTO ledger.payments (id, position, merchant_id, livemode, session_id, session_reference, etransfer_ref, amount, sender_name,
         sender_email, comment, status, verification_method, review_reasons, created_at, updated_at, version)
       SELECT 'txn_' || lpad(i::text, 24, '0'), i, CASE WHEN i % 2 = 1 THEN 'mer_a' ELSE 'mer_b' END, i <> 7, NULL, NULL, 'PP-REF' || i,
              1000, 'Payer ' || i, NULL, NULL, CASE WHEN i = 3 THEN 'CONFIRMED' ELSE 'REQUIRES_MANUAL_REVIEW' END, 'AUTO_EMAIL', '{}', now(), now(), 1
       FROM generate_series(1, 7) AS i`,
    );
  });
  afterAll(async () => {
    await Promise.all([db?.end(), ledger?.end()]);
    await database?.drop();
  });

  const txn = (i: number) => `txn_${String(i).padStart(24, '0')}`;
  const list = async (params: Partial<ListAllPaymentsQuery>) => {
    const page = await handler.listAll(params as ListAllPaymentsQuery);
    return { ids: page.data.map((payment) => payment.id), has_more: page.has_more };
  };
  const refusal = (params: Partial<ListAllPaymentsQuery>) =>
    handler.listAll(params as ListAllPaymentsQuery).then(
      () => 'answered',
      (error: unknown) => (error instanceof DomainError ? `${error.code}: ${error.message}` : error),
    );

  it("given merchant A's list, when the cursor is merchant B's payment, then NOT_FOUND", async () => {
    expect(await refusal({ merchant_id: 'mer_a', starting_after: txn(4) })).toBe(`${ErrorCode.NotFound}: Payment not found`);
  });

  it("given merchant A's live list, when the cursor is A's test-mode payment, then NOT_FOUND", async () => {
    expect(await refusal({ merchant_id: 'mer_a', livemode: true, starting_after: txn(7) })).toBe(`${ErrorCode.NotFound}: Payment not found`);
  });

  it("given merchant A's list, when the cursor is A's own payment, then the next page follows it", async () => {
    expect(await list({ merchant_id: 'mer_a', livemode: true, limit: 1 })).toEqual({ ids: [txn(5)], has_more: true });
    expect(await list({ merchant_id: 'mer_a', livemode: true, limit: 1, starting_after: txn(5) })).toEqual({ ids: [txn(3)], has_more: true });
    expect(await list({ merchant_id: 'mer_a', livemode: true, limit: 1, starting_after: txn(3) })).toEqual({ ids: [txn(1)], has_more: false });
  });

  it('given the review queue, when the cursor is a payment verified since its page was read, then the next page follows it', async () => {
    expect(await list({ status: 'REQUIRES_MANUAL_REVIEW', merchant_id: 'mer_a', starting_after: txn(3) })).toEqual({ ids: [txn(1)], has_more: false });
  });

  it('given no merchant, when the cursor is any payment, then the next page follows it across merchants', async () => {
    expect(await list({ livemode: true, limit: 2, starting_after: txn(4) })).toEqual({ ids: [txn(3), txn(2)], has_more: true });
  });
});
