import type { MigrationInterface, QueryRunner } from 'typeorm';
import { RefundOutboundReference1767225600012 } from './1767225600012-refund-outbound-reference.migration';

/**
 * Whitespace as JavaScript's `\s` names it (ECMAScript's white space and line
 * terminators), listed: Postgres' own `\s` and `[[:space:]]` follow the
 * database's locale, and would leave a no-break space in, say.
 */
export const WHITESPACE = `E'\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000\\u2001\\u2002\\u2003\\u2004\\u2005\\u2006\\u2007\\u2008\\u2009\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff'`;

/** A reference as this rule compared it: upper case, without any whitespace (migration 1767225600018 compares letters and digits). */
const KEY = `upper(translate(outbound_reference, ${WHITESPACE}, ''))`;

/**
 * One live refund per outbound transfer (PRODUCT-RULES §3.3), the reference
 * now compared as the decider compares it: upper case, without any whitespace.
 * Compared without case and surrounding space only, `CA 77`, `CA\u00a077` or
 * `C A77` could complete a second refund after `CA77`, one bank transfer
 * shown as the proof of two. The index keeps its name, which the refunds
 * projection answers as 409 outbound_reference_used.
 *
 * Refunds completed before may share a reference under this comparison
 * though not under the earlier one (`CA 77` and `CA77`). They are handled as
 * that migration handled its history: each can never change (its events are
 * the record), so the first of each group (by position) stays under the
 * rule, which keeps its reference taken, and the others are named in the
 * predicate, whence a rebuild of the read model makes the index again.
 */
export class RefundOutboundReferenceNormalized1767225600014 implements MigrationInterface {
  name = 'RefundOutboundReferenceNormalized1767225600014';

  async up(db: QueryRunner): Promise<void> {
    await remakeOutboundReferenceRule(db, KEY);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX ledger.refunds_one_per_outbound_reference`);
    await new RefundOutboundReference1767225600012().up(db);
  }
}

/**
 * Makes the one-refund-per-outbound-reference index again, comparing `key`:
 * the live refunds that already share a reference under it are named in the
 * predicate, all but the first of each group (by position).
 */
export async function remakeOutboundReferenceRule(db: QueryRunner, key: string): Promise<void> {
  // Until the new index stands: a replica still on the old rule could otherwise complete a refund the new one refuses
  // between the look at the history and the index, and the index would fail (the migration's transaction ends the lock).
  await db.query('LOCK TABLE ledger.refunds IN ACCESS EXCLUSIVE MODE'); // what DROP INDEX takes anyway: no upgrade later
  const earlier = (await db.query(
    `SELECT id FROM (
       SELECT id, row_number() OVER (PARTITION BY ${key} ORDER BY position) AS nth
       FROM ledger.refunds WHERE livemode AND outbound_reference IS NOT NULL
     ) AS numbered WHERE nth > 1 ORDER BY id`,
  )) as Array<{ id: string }>;
  // Refund ids are `rf_` and a CUID2 (lower-case letters and digits), so they stand in the statement as they are.
  const exempt = earlier.length > 0 ? ` AND id NOT IN (${earlier.map(({ id }) => `'${id.replace(/[^a-z0-9_]/g, '')}'`).join(', ')})` : '';
  await db.query(`DROP INDEX ledger.refunds_one_per_outbound_reference`);
  await db.query(
    `CREATE UNIQUE INDEX refunds_one_per_outbound_reference ON ledger.refunds (${key})
     WHERE livemode AND outbound_reference IS NOT NULL${exempt}`,
  );
}
