import type { TransferEvidence } from '@pp/contracts';

/**
 * What the ingest hands to payments.record-transfer.v1 for a genuine notice:
 * signed by Interac, one To header naming one mailbox, the merchant's deposit
 * address. With a matching pending live session it confirms; override a
 * field to build a doubtful one.
 */
export const genuineNoticeEvidence = (overrides: Partial<TransferEvidence> = {}): TransferEvidence => ({
  authenticated: true,
  authentication_reasons: [],
  signed_recipient: 'payments@merchant.example',
  recipient_reasons: [],
  deposit_address: 'payments@merchant.example',
  parse_reasons: [],
  ...overrides,
});
