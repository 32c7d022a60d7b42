import { randomUUID } from 'node:crypto';
import type { RecordTransferCommand, TransferEvidence } from '@pp/contracts';

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

/**
 * A live transfer as the ingest hands it to payments.record-transfer.v1 after
 * reading a genuine notice: the merchant's, carrying `memo`, for 25.00 CAD
 * unless told. Specs that need a live payment send it on the bus.
 */
export const genuineTransfer = (merchantId: string, memo: string | null, overrides: Partial<RecordTransferCommand> = {}): RecordTransferCommand => ({
  merchant_id: merchantId,
  livemode: true,
  email_id: `em_${randomUUID().replace(/-/g, '')}`,
  memo,
  amount: 2500,
  sender_name: 'Jo Payer',
  sender_email: 'jo@payer.example',
  comment: null,
  reference_number: 'C1AbCdEf',
  evidence: genuineNoticeEvidence(),
  ...overrides,
});
