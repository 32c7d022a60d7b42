import { createTestDatabase, type TestDatabase } from '@pp/testing';
import { Client } from 'pg';
import type { QueryRunner } from 'typeorm';
import { RefundOutboundReference1767225600012 } from '../database/migrations/1767225600012-refund-outbound-reference.migration';
import { RefundOutboundReferenceNormalized1767225600014 } from '../database/migrations/1767225600014-refund-outbound-reference-normalized.migration';
import { RefundOutboundReferenceLettersAndDigits1767225600018 } from '../database/migrations/1767225600018-refund-outbound-reference-letters-and-digits.migration';

/*
 * One bank transfer proves one refund (PRODUCT-RULES §3.3): the read model's
 * unique index compares outbound references by their letters and digits,
 * upper-cased, as the decider does, and each of its migrations takes a
 * history that already shares references under its comparison (it must not
 * fail on them, and the reference stays taken for every later refund).
 */
describe('one live refund per outbound reference, however spaced or punctuated, over an earlier history', () => {
  let database: TestDatabase;
  let db: Client;

  beforeAll(async () => {
    database = await createTestDatabase('outboundrefkey');
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
  /** Runs one migration's step in a transaction of its own, as the migrate command runs each. */
  const migrated = async (step: (runner: QueryRunner) => Promise<void>) => {
    await db.query('BEGIN');
    try {
      await step(asQueryRunner);
      await db.query('COMMIT');
    } catch (error) {
      await db.query('ROLLBACK');
      throw error;
    }
  };
  const indexDefinition = async () =>
    (await db.query(`SELECT indexdef FROM pg_indexes WHERE indexname = 'refunds_one_per_outbound_reference'`)).rows[0].indexdef as string;
  /** A ledger with no refund and no outbound-reference rule, as before migration 012. */
  const withoutTheRule = async () => {
    await db.query('DELETE FROM ledger.refunds');
    await db.query('DROP INDEX ledger.refunds_one_per_outbound_reference');
  };

  it('given live refunds already sharing a reference before rule 012, when it is created: it is, and the reference stays taken by the first of them', async () => {
    await withoutTheRule();
    await completedRefund('rf_first', 'CA-SHARED');
    await completedRefund('rf_second', ' ca-shared ');
    await completedRefund('rf_third', 'Ca-Shared');
    await completedRefund('rf_test', 'CA-SHARED', false);
    await completedRefund('rf_alone', 'CA-ALONE');

    await migrated((runner) => new RefundOutboundReference1767225600012().up(runner));

    const definition = await indexDefinition();
    expect(definition).toContain(`'rf_second'`);
    expect(definition).toContain(`'rf_third'`);
    expect(definition).not.toContain(`'rf_first'`);
    await expect(completedRefund('rf_later', 'ca-shared')).rejects.toMatchObject({ constraint: 'refunds_one_per_outbound_reference' });
    await expect(completedRefund('rf_later_alone', 'CA-ALONE ')).rejects.toMatchObject({ constraint: 'refunds_one_per_outbound_reference' });
    await expect(completedRefund('rf_new', 'CA-NEW')).resolves.toBeDefined();
    // As every later migration finds it: 014 and 018 on top.
    await migrated((runner) => new RefundOutboundReferenceNormalized1767225600014().up(runner));
    await migrated((runner) => new RefundOutboundReferenceLettersAndDigits1767225600018().up(runner));
    await db.query('DELETE FROM ledger.refunds');
  });

  describe('given a live refund completed with CA77', () => {
    beforeEach(() => completedRefund('rf_ca77', 'CA77'));
    afterEach(() => db.query(`DELETE FROM ledger.refunds WHERE id LIKE 'rf_ca77%'`));

    it.each(['CA 77', 'ca77', 'CA\u00a077', 'C A\t7 7', '\u3000CA77\u2028', 'CA-77', 'c.a/7_7', 'CA 7-7'])('when another completes with %p: refused, the same transfer', async (spelt) => {
      await expect(completedRefund('rf_ca77_again', spelt)).rejects.toMatchObject({ constraint: 'refunds_one_per_outbound_reference' });
    });
  });

  it('given a live refund completed with CB10, when others complete with CB100 or in test mode with CB10: both go in', async () => {
    await completedRefund('rf_cb_first', 'CB10');
    await expect(completedRefund('rf_cb_longer', 'CB100')).resolves.toBeDefined();
    await expect(completedRefund('rf_cb_test', 'CB10', false)).resolves.toBeDefined();
  });

  it('given live refunds sharing a reference only under the new comparison, when migrated: the index is made, and the first of each keeps its reference taken', async () => {
    // The history before this migration: the earlier rule, and refunds it let share a transfer.
    await withoutTheRule();
    await migrated((runner) => new RefundOutboundReference1767225600012().up(runner));
    await completedRefund('rf_spaced_first', 'CD 55');
    await completedRefund('rf_spaced_second', 'CD55');
    await completedRefund('rf_spaced_third', 'cd\u00a055');
    await completedRefund('rf_spaced_test', 'CD55', false);
    await completedRefund('rf_alone', 'CE 66');

    await migrated((runner) => new RefundOutboundReferenceNormalized1767225600014().up(runner));

    const definition = await indexDefinition();
    expect(definition).toContain('upper(translate(outbound_reference');
    expect(definition).toContain(`'rf_spaced_second'`);
    expect(definition).toContain(`'rf_spaced_third'`);
    expect(definition).not.toContain(`'rf_spaced_first'`);
    expect(definition).not.toContain(`'rf_alone'`);
    await expect(completedRefund('rf_later', 'c d 5 5')).rejects.toMatchObject({ constraint: 'refunds_one_per_outbound_reference' });
    await expect(completedRefund('rf_later_alone', 'CE66')).rejects.toMatchObject({ constraint: 'refunds_one_per_outbound_reference' });
    await expect(completedRefund('rf_new', 'CF77')).resolves.toBeDefined();

    await migrated((runner) => new RefundOutboundReferenceNormalized1767225600014().down(runner));
    expect(await indexDefinition()).toContain('lower(btrim(outbound_reference))');
  });

  it('given live refunds sharing a reference only by its letters and digits, when migrated: the index is made, and the first of each keeps its reference taken', async () => {
    await withoutTheRule();
    await migrated((runner) => new RefundOutboundReference1767225600012().up(runner));
    await migrated((runner) => new RefundOutboundReferenceNormalized1767225600014().up(runner));
    await completedRefund('rf_dash_first', 'C-1234567');
    await completedRefund('rf_dash_second', 'C1234567');
    await completedRefund('rf_dash_third', 'c.123/45_67');
    await completedRefund('rf_dash_test', 'C1234567', false);
    await completedRefund('rf_alone', 'CG-88');

    await migrated((runner) => new RefundOutboundReferenceLettersAndDigits1767225600018().up(runner));

    const definition = await indexDefinition();
    expect(definition).toContain(`'rf_dash_second'`);
    expect(definition).toContain(`'rf_dash_third'`);
    expect(definition).not.toContain(`'rf_dash_first'`);
    expect(definition).not.toContain(`'rf_alone'`);
    await expect(completedRefund('rf_later', 'C 1234-567')).rejects.toMatchObject({ constraint: 'refunds_one_per_outbound_reference' });
    await expect(completedRefund('rf_later_alone', 'CG88')).rejects.toMatchObject({ constraint: 'refunds_one_per_outbound_reference' });
    await expect(completedRefund('rf_new', 'CH-99')).resolves.toBeDefined();

    await migrated((runner) => new RefundOutboundReferenceLettersAndDigits1767225600018().down(runner));
    await expect(completedRefund('rf_new_dashed', 'CH99')).resolves.toBeDefined();
  });
});
