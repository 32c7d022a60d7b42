import { createHash } from 'node:crypto';
import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type CheckoutSessionRef,
  DomainError,
  ErrorCode,
  RecordTransferCommand,
  ReviewReason,
  type StreamAppend,
  transactionStreamId,
  type TransactionView,
} from '@pp/contracts';
import { type Clock, normalizeMemo } from '@pp/kernel';
import { BusClient, retryOnConcurrencyConflict } from '@pp/platform';
import type { CheckoutSession } from '../checkout-session/checkout-session.decider';
import { CLOCK } from '../checkout-session/checkout-session.lifecycle';
import { CheckoutSessionRepository } from '../checkout-session/checkout-session.repository';
import { decide, fold, type Payment } from './payment.decider';
import { PaymentRepository } from './payment.repository';
import { transactionView } from './payment.view';
import { isOpen, sessionCompletion } from './session-completion';

/**
 * One payment per e-mail, ever: its id is derived from the email_id, so the
 * payment stream can be created once (expected version 0), whatever the
 * number of deliveries, replicas or retries.
 */
export const paymentIdOfEmail = (emailId: string): string =>
  `txn_${createHash('sha256').update(`email:${emailId}`).digest('hex').slice(0, 24)}`;

/**
 * A live transfer e-mail from the ingest (SPEC §3.1, §3.2, DESIGN.md §3). It
 * auto-confirms (AUTO_EMAIL) when the memo names a PENDING, unexpired live
 * session of the merchant with the same amount and the ingest gave no reason
 * to doubt it; the session completes in the same append. Anything else is
 * never lost: a REQUIRES_MANUAL_REVIEW payment with machine-readable reasons
 * and payment.pending_review. A test session is never confirmed from e-mail,
 * and is not linked (live data never points into test mode).
 */
@Controller()
export class RecordTransferHandler {
  constructor(
    private readonly bus: BusClient,
    private readonly sessions: CheckoutSessionRepository,
    private readonly payments: PaymentRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @MessagePattern('payments.record-transfer.v1')
  record(@Payload() command: RecordTransferCommand): Promise<TransactionView> {
    const paymentId = paymentIdOfEmail(command.email_id);
    return retryOnConcurrencyConflict(async () => {
      const existing = (await this.payments.load(paymentId)).state;
      if (existing) {
        if (existing.merchant_id !== command.merchant_id) throw new DomainError(ErrorCode.Conflict, 'E-mail already recorded for another merchant');
        return transactionView(existing);
      }
      const memo = command.memo === null || command.memo === undefined ? null : (normalizeMemo(command.memo) ?? command.memo);
      const match = memo ? await this.sessionOfMemo(memo) : undefined;
      const linked = match && match.merchant_id === command.merchant_id && match.livemode ? await this.sessions.load(match.session_id) : undefined;
      const session = linked?.state ?? null;
      const now = this.clock.now();

      const reasons = reviewReasons(command, match, session, now);
      const status = reasons.length === 0 ? 'CONFIRMED' : 'REQUIRES_MANUAL_REVIEW';
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
          review_reasons: reasons,
          source: 'email',
          email_id: command.email_id,
          reference_number: command.reference_number ?? null,
        },
      });
      const streams: StreamAppend[] = [{ stream_id: transactionStreamId(paymentId), expected_version: 0, events }];
      if (status === 'CONFIRMED') streams.push(sessionCompletion(session!, linked!.version, now, paymentId));
      const reply = await this.payments.append(streams, command, { causationId: command.email_id });
      return transactionView(fold(reply.streams[0].events) as Payment);
    });
  }

  private async sessionOfMemo(memo: string): Promise<CheckoutSessionRef | undefined> {
    try {
      return await this.bus.request('ledger.checkout-sessions.by-memo.v1', { memo });
    } catch (error) {
      if (error instanceof DomainError && error.code === ErrorCode.NotFound) return undefined;
      throw error;
    }
  }
}

/** Why the transfer cannot be confirmed automatically; empty when it can. */
function reviewReasons(command: RecordTransferCommand, match: CheckoutSessionRef | undefined, session: CheckoutSession | null, now: Date): string[] {
  const reasons: string[] = [];
  if (match && match.merchant_id === command.merchant_id && !match.livemode) reasons.push(ReviewReason.TestSession);
  else if (!session) reasons.push(ReviewReason.UnknownMemo);
  else {
    if (session.status === 'COMPLETED') reasons.push(ReviewReason.SessionCompleted);
    else if (!isOpen(session, now)) reasons.push(ReviewReason.SessionExpired);
    if (session.amount !== command.amount) reasons.push(ReviewReason.WrongAmount);
  }
  for (const reason of [command.review_reason, ...(command.review_reasons ?? [])]) if (reason && !reasons.includes(reason)) reasons.push(reason);
  return reasons;
}
