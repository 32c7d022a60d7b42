import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One live refund per outbound transfer: the reference an operator records as
 * the evidence that the money went back can complete one refund only, so one
 * bank transfer cannot be shown as the proof of several (PRODUCT-RULES §3.3).
 * References are compared without case or surrounding space, as a bank's are read.
 *
 * The rule holds for refunds completed from this migration on: the index's
 * predicate names the time it ran, so refunds completed before, which may
 * already share a reference and can never change (their events are the
 * record), neither stop the migration nor a later rebuild of the read model,
 * which makes the index again from its stored definition.
 */
export class RefundOutboundReference1767225600012 implements MigrationInterface {
  name = 'RefundOutboundReference1767225600012';

  async up(db: QueryRunner): Promise<void> {
    const [{ since }] = (await db.query(`SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS since`)) as Array<{ since: string }>;
    await db.query(
      `CREATE UNIQUE INDEX refunds_one_per_outbound_reference ON ledger.refunds (lower(btrim(outbound_reference)))
       WHERE livemode AND outbound_reference IS NOT NULL AND completed_at >= '${since}'::timestamptz`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX ledger.refunds_one_per_outbound_reference`);
  }
}
