import type { MigrationInterface, QueryRunner } from 'typeorm';
import { RefundOutboundReferenceNormalized1767225600014, remakeOutboundReferenceRule, WHITESPACE } from './1767225600014-refund-outbound-reference-normalized.migration';

/** A reference as the rule compares it: its letters and digits, upper case (outboundReferenceKey in apps/refunds refund.decider.ts). */
const KEY = `upper(translate(outbound_reference, ${WHITESPACE} || '._/-', ''))`;

/**
 * One live refund per outbound transfer (PRODUCT-RULES §3.3), the reference
 * now compared by its letters and digits alone: the edge admits `. _ / -`
 * between them, so compared with them, `C-1234567` or `C.1234567` could
 * complete a second refund after `C1234567`, one bank transfer shown as the
 * proof of two. Refunds completed before that now share a reference are
 * named in the predicate, as migration 1767225600014 names them.
 */
export class RefundOutboundReferenceLettersAndDigits1767225600018 implements MigrationInterface {
  name = 'RefundOutboundReferenceLettersAndDigits1767225600018';

  async up(db: QueryRunner): Promise<void> {
    await remakeOutboundReferenceRule(db, KEY);
  }

  async down(db: QueryRunner): Promise<void> {
    await new RefundOutboundReferenceNormalized1767225600014().up(db);
  }
}
