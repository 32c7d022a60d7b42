import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One live refund per outbound transfer: the reference an operator records as
 * the evidence that the money went back can complete one refund only, so one
 * bank transfer cannot be shown as the proof of several (PRODUCT-RULES §3.3).
 * References are compared without case or surrounding space, as a bank's are read.
 *
 * Refunds completed before this rule may already share a reference, and can
 * never change (their events are the record): the first of each such group
 * (by position) stays under the rule, which keeps its reference taken, and
 * the others are named in the index's predicate, so they stop neither this
 * migration nor a later rebuild of the read model, which makes the index
 * again from its stored definition.
 */
export class RefundOutboundReference1767225600012 implements MigrationInterface {
  name = 'RefundOutboundReference1767225600012';

  async up(db: QueryRunner): Promise<void> {
    const earlier = (await db.query(
      `SELECT id FROM (
         SELECT id, row_number() OVER (PARTITION BY lower(btrim(outbound_reference)) ORDER BY position) AS nth
         FROM ledger.refunds WHERE livemode AND outbound_reference IS NOT NULL
       ) AS numbered WHERE nth > 1 ORDER BY id`,
    )) as Array<{ id: string }>;
    // Refund ids are `rf_` and a CUID2 (lower-case letters and digits), so they stand in the statement as they are.
    const exempt = earlier.length > 0 ? ` AND id NOT IN (${earlier.map(({ id }) => `'${id.replace(/[^a-z0-9_]/g, '')}'`).join(', ')})` : '';
    await db.query(
      `CREATE UNIQUE INDEX refunds_one_per_outbound_reference ON ledger.refunds (lower(btrim(outbound_reference)))
       WHERE livemode AND outbound_reference IS NOT NULL${exempt}`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX ledger.refunds_one_per_outbound_reference`);
  }
}
