import type { ListPaymentsQuery } from '@pp/contracts';
import { createTestDatabase, testPool, type TestDatabase } from '@pp/testing';
import type { Pool } from 'pg';
import { PaymentQueriesHandler } from './payment-queries.handler';

/*
 * ledger.payments.list.v1 for one checkout session (the dashboard's session
 * detail): a page that says has_more must lead to the next one through its
 * cursor, and the filters narrow it as they do the merchant's whole list.
 */
describe('payments of one checkout session, listed', () => {
  let database: TestDatabase;
  let db: Pool;
  let handler: PaymentQueriesHandler;

  beforeAll(async () => {
    database = await createTestDatabase('sessionpayments');
    await database.migrate('ledger');
    db = testPool(database.url, 1);
    handler = new PaymentQueriesHandler(db);
    // Three transfers for session cs_1 (the middle one failed), and one for another session of the same merchant.
    await db.query(
      `INSERT INTO ledger.payments (id, position, merchant_id, livemode, session_id, session_reference, etransfer_ref, amount, sender_name,
         sender_email, comment, status, verification_method, review_reasons, created_at, updated_at, version)
       SELECT 'txn_' || lpad(i::text, 24, '0'), i, 'mer_1', false, CASE WHEN i = 4 THEN 'cs_2' ELSE 'cs_1' END, 'order-' || i, 'PP-REF' || i,
              1000, 'Payer ' || i, NULL, NULL, CASE WHEN i = 2 THEN 'FAILED' ELSE 'CONFIRMED' END, 'AUTO_EMAIL', '{}', now(), now(), 1
       FROM generate_series(1, 4) AS i`,
    );
  });
  afterAll(async () => {
    await db?.end();
    await database?.drop();
  });

  const txn = (i: number) => `txn_${String(i).padStart(24, '0')}`;
  const list = async (params: Partial<ListPaymentsQuery>) => {
    const page = await handler.list({ merchant_id: 'mer_1', livemode: false, session_id: 'cs_1', ...params } as ListPaymentsQuery);
    return { ids: page.data.map((payment) => payment.id), has_more: page.has_more };
  };

  it('given a page with more after it, when its last id is the cursor, then the next page follows it, to the end', async () => {
    expect(await list({ limit: 2 })).toEqual({ ids: [txn(3), txn(2)], has_more: true });
    expect(await list({ limit: 2, starting_after: txn(2) })).toEqual({ ids: [txn(1)], has_more: false });
  });

  it('given a status or a reference, then only the session payments matching it are listed', async () => {
    expect(await list({ status: 'FAILED' })).toEqual({ ids: [txn(2)], has_more: false });
    expect(await list({ reference: 'pp-ref3' })).toEqual({ ids: [txn(3)], has_more: false });
  });
});
