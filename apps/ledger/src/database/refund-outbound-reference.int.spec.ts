import { createTestDatabase, type TestDatabase } from '@pp/testing';
import { Client } from 'pg';
import type { QueryRunner } from 'typeorm';
import { RefundOutboundReference1767225600012 } from './migrations/1767225600012-refund-outbound-reference.migration';

/*
 * The outbound-reference rule on a ledger that already holds live refunds
 * sharing a reference (completed before the rule): its migration must not
 * fail on them, and the reference must stay taken for every later refund.
 */
describe('the outbound-reference rule over an earlier history', () => {
  let database: TestDatabase;
  let db: Client;

  beforeAll(async () => {
    database = await createTestDatabase('outboundref');
    await database.migrate('ledger');
    db = new Client({ connectionString: database.ownerUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await database?.drop();
  });

  let position = 0;
  const completedRefund = (id: string, reference: string, livemode = true) =>
    db.query(
      `INSERT INTO ledger.refunds (id, position, merchant_id, livemode, payment_id, amount, status, requested_by, requested_at, outbound_reference, completed_at, version)
       VALUES ($1, $2, 'mer_1', $3, $4, 2500, 'COMPLETED', 'key_1', now(), $5, now(), 4)`,
      [id, ++position, livemode, `txn_${id}`, reference],
    );
  const asQueryRunner = { query: (sql: string) => db.query(sql).then((result) => result.rows) } as unknown as QueryRunner;

  it('given live refunds already sharing a reference, when the rule is created: it is, and the reference stays taken by the first of them', async () => {
    // The history before the rule: the migration ran with the others, so take it out and put that history in.
    await db.query('DROP INDEX ledger.refunds_one_per_outbound_reference');
    await completedRefund('rf_first', 'CA-SHARED');
    await completedRefund('rf_second', ' ca-shared ');
    await completedRefund('rf_third', 'Ca-Shared');
    await completedRefund('rf_test', 'CA-SHARED', false);
    await completedRefund('rf_alone', 'CA-ALONE');

    await new RefundOutboundReference1767225600012().up(asQueryRunner);

    const { rows } = await db.query(`SELECT indexdef FROM pg_indexes WHERE indexname = 'refunds_one_per_outbound_reference'`);
    expect(rows[0].indexdef).toContain(`'rf_second'`);
    expect(rows[0].indexdef).toContain(`'rf_third'`);
    expect(rows[0].indexdef).not.toContain(`'rf_first'`);
    await expect(completedRefund('rf_later', 'ca-shared')).rejects.toMatchObject({ constraint: 'refunds_one_per_outbound_reference' });
    await expect(completedRefund('rf_later_alone', 'CA-ALONE ')).rejects.toMatchObject({ constraint: 'refunds_one_per_outbound_reference' });
    await expect(completedRefund('rf_new', 'CA-NEW')).resolves.toBeDefined();
  });
});
