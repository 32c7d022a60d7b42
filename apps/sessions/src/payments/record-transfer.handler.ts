import { createHash } from 'node:crypto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  DomainError,
  EMAIL_RECORDED_FOR_ANOTHER_MERCHANT_RULE,
  ErrorCode,
  foldStored,
  RecordTransferCommand,
  transactionStreamId,
  type PaymentView,
} from '@pp/contracts';
import { normalizeMemo } from '@pp/kernel';
import { CommandRunner, Handles } from '@pp/platform';
import { checkoutSessionAggregate } from '../checkout-session/checkout-session.decider';
import { MemoDirectory } from '../checkout-session/memo-directory';
import { decide, type Payment, paymentAggregate } from './payment.decider';
import { transactionView } from './payment.view';
import { sessionPart } from './session-completion';
import { matchTransfer, payableSessionId } from './transfer-match.policy';

/**
 * One payment per e-mail, ever: its id is derived from the email_id, so the
 * payment stream can be created once (expected version 0), whatever the
 * number of deliveries, replicas or retries.
 */
export const paymentIdOfEmail = (emailId: string): string =>
  `txn_${createHash('sha256').update(`email:${emailId}`).digest('hex').slice(0, 24)}`;

/**
 * A live transfer e-mail from the ingest (PRODUCT-RULES §3.1, §3.2, PRODUCT-RULES §D3):
 * loads the session its memo names and records the payment the
 * transfer-match policy decides. A confirmation completes the session in the
 * same append; anything else is never lost: a REQUIRES_MANUAL_REVIEW payment
 * with machine-readable reasons and payment.pending_review.
 */
@Controller()
export class RecordTransferHandler {
  constructor(
    private readonly memos: MemoDirectory,
    private readonly runner: CommandRunner,
  ) {}

  @Handles('payments.record-transfer.v1')
  record(@Payload() command: RecordTransferCommand): Promise<PaymentView> {
    const paymentId = paymentIdOfEmail(command.email_id);
    // Almost every delivery is the first, so the first round does not read the payment stream: its append at
    // version 0 proves the payment new, or fails whole (the session's completion with it) with a conflict, and
    // every later round reads the stream and answers the payment recorded.
    let firstRound = true;
    return this.runner.run(async (round) => {
      const existing = firstRound ? null : (await round.load(paymentAggregate, paymentId)).state;
      firstRound = false;
      if (existing) {
        if (existing.merchant_id !== command.merchant_id) {
          throw new DomainError(ErrorCode.Conflict, 'E-mail already recorded for another merchant', {
            rule: EMAIL_RECORDED_FOR_ANOTHER_MERCHANT_RULE,
            merchant_id: existing.merchant_id,
            payment: transactionView(existing),
          });
        }
        return { append: false, answer: transactionView(existing) };
      }
      const memo = command.memo === null || command.memo === undefined ? null : (normalizeMemo(command.memo) ?? command.memo);
      const memoOwner = memo ? await this.memos.sessionOf(memo) : undefined;
      const payableId = payableSessionId(memoOwner, command.merchant_id);
      const linked = payableId ? await round.load(checkoutSessionAggregate, payableId) : undefined;
      const session = linked?.state ?? null;
      const now = round.now();
      const { status, review_reasons } = matchTransfer({
        merchant_id: command.merchant_id,
        amount: command.amount,
        evidence: command.evidence,
        memo_owner: memoOwner,
        session,
        now,
      });
      const events = decide(null, {
        kind: 'record',
        now,
        payment: {
          payment_id: paymentId,
          merchant_id: command.merchant_id,
          livemode: true,
          session_id: session?.id ?? null,
          session_reference: session?.reference ?? null,
          session_metadata: session?.metadata ?? null,
          etransfer_ref: memo,
          amount: command.amount,
          sender_name: command.sender_name,
          sender_email: command.sender_email ?? null,
          comment: command.comment ?? null,
          status,
          verification_method: 'AUTO_EMAIL',
          review_reasons,
          source: 'email',
          email_id: command.email_id,
          reference_number: command.reference_number ?? null,
        },
      });
      // A confirmation completes the session (the policy confirms only for an open one); a review rests on it as
      // loaded (its reasons say whether it was paid or expired).
      const onSession = sessionPart(session, linked?.version ?? 0, now, paymentId, status === 'CONFIRMED');
      return {
        append: [{ stream_id: transactionStreamId(paymentId), expected_version: 0, events }, ...onSession.append],
        scope: command,
        options: { causationId: command.email_id, unchanged: onSession.unchanged, commitBefore: onSession.commitBefore },
        answer: (reply) => transactionView(foldStored(paymentAggregate, reply.streams[0].events) as Payment),
      };
    });
  }
}
