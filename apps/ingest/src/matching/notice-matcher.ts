import { Injectable } from '@nestjs/common';
import { type DepositAddressOwner, DomainError, EMAIL_RECORDED_FOR_ANOTHER_MERCHANT_RULE, ErrorCode, type MatchingDisposition, type PaymentView } from '@pp/contracts';
import { BusClient } from '@pp/platform';
import type { HandoffResult, NoticeHandler } from '../processing/notice-handler';
import type { ProcessedEmail } from '../processing/processed-email';
import { DepositAddressDirectory } from './deposit-address-directory';
import { planMatching, type TransferDraft } from './matching-plan';
import { QuarantineRepository } from './quarantine.repository';

const BUS_TIMEOUT_MS = 15_000;

export type MatchResult =
  | { disposition: Exclude<MatchingDisposition, 'confirmed' | 'manual_review'> }
  | { disposition: 'confirmed' | 'manual_review'; merchant_id: string; payment_id: string; review_reasons: string[] };

/**
 * Live e-mail matching (PRODUCT-RULES §3.1-§3.2): routes the notice to the merchant
 * whose deposit address it names (signed recipient first, then any To or
 * Delivered-To) and hands the transfer with its evidence to
 * payments.record-transfer.v1, whose policy confirms it (AUTO_EMAIL) or
 * records it for manual review. Mail for no known merchant is quarantined for
 * platform admins.
 *
 * Safe to repeat for one e-mail (a hand-off after a crash, a retry from
 * quarantine, two replicas): record-transfer is idempotent by email_id and the
 * quarantine rows are written once. Matching an e-mail that was quarantined
 * does not release it here: its hand-off record does, in the same statement
 * (OutcomeRepository.recordHandoff), and so does the admins' retry. A failure
 * (a silent gateway or sessions service) throws, so no hand-off is recorded
 * and the processing sweeper repeats it.
 */
@Injectable()
export class NoticeMatcher implements NoticeHandler {
  constructor(
    private readonly bus: BusClient,
    private readonly directory: DepositAddressDirectory,
    private readonly quarantine: QuarantineRepository,
  ) {}

  async handle(email: ProcessedEmail): Promise<HandoffResult> {
    const result = await this.match(email);
    if (!('payment_id' in result)) return { disposition: result.disposition };
    return { disposition: result.disposition, review_reasons: result.review_reasons, payment: { merchant_id: result.merchant_id, payment_id: result.payment_id } };
  }

  async match(email: ProcessedEmail): Promise<MatchResult> {
    const plan = planMatching(email);
    if (plan.action === 'skip') return { disposition: plan.disposition };
    const merchant = plan.recipients.length > 0 ? await this.directory.ownerOf(plan.recipients) : null;
    if (!merchant) {
      await this.quarantine.quarantine(email.email_id, plan.recipients);
      return { disposition: 'quarantined' };
    }
    const { merchant_id, payment } = await this.record(merchant, plan.transfer);
    return {
      disposition: payment.status === 'CONFIRMED' ? 'confirmed' : 'manual_review',
      merchant_id,
      payment_id: payment.id,
      review_reasons: payment.review_reasons,
    };
  }

  /**
   * The deposit address that routed the notice goes with the evidence: the policy compares it with the signed
   * recipient. An e-mail already recorded for another merchant (its first hand-off's answer was lost, and the address
   * has moved since) is that merchant's payment: the hand-off records it as such instead of being refused for ever.
   */
  private async record(merchant: DepositAddressOwner, transfer: TransferDraft): Promise<{ merchant_id: string; payment: PaymentView }> {
    try {
      const payment = await this.bus.request(
        'payments.record-transfer.v1',
        { ...transfer, merchant_id: merchant.merchant_id, livemode: true, evidence: { ...transfer.evidence, deposit_address: merchant.address } },
        { timeoutMs: BUS_TIMEOUT_MS },
      );
      return { merchant_id: merchant.merchant_id, payment };
    } catch (error) {
      const details = error instanceof DomainError && error.code === ErrorCode.Conflict ? error.details : undefined;
      if (details?.rule !== EMAIL_RECORDED_FOR_ANOTHER_MERCHANT_RULE) throw error;
      return { merchant_id: details.merchant_id as string, payment: details.payment as PaymentView };
    }
  }
}
