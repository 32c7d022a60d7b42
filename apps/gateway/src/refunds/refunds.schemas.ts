import { REFUND_STATUSES, type RefundView } from '@pp/contracts';
import { DATE_TIME, listSchema, NULLABLE_STRING, viewSchema } from '../openapi/view-schema';

const stageTime = (description: string) => ({ type: 'string', format: 'date-time', nullable: true, description }) as const;

/** RefundView (PRODUCT-RULES §2.5 with the fields §D3 settles). */
export const REFUND_SCHEMA = viewSchema<RefundView>({
  id: { type: 'string', example: 'rf_k3v9x0c2p7d1m4q8r5t6w2y0' },
  payment_id: { type: 'string', example: 'txn_k3v9x0c2p7d1m4q8r5t6w2y0' },
  merchant_id: { type: 'string' },
  amount: { type: 'integer', description: "CAD cents: always the payment's full amount" },
  status: { type: 'string', enum: REFUND_STATUSES },
  livemode: { type: 'boolean' },
  requested_by: { type: 'string', description: 'The API key id, or the dashboard user, that asked for it' },
  reason: NULLABLE_STRING,
  outbound_reference: { ...NULLABLE_STRING, description: 'Reference of the outbound e-transfer (live completion)' },
  evidence_note: { ...NULLABLE_STRING, description: 'What the operator checked (live completion)' },
  rejection_reason: NULLABLE_STRING,
  failure_reason: { ...NULLABLE_STRING, description: 'Why the outbound transfer failed after SENT' },
  created_at: DATE_TIME,
  requested_at: DATE_TIME,
  approved_at: stageTime('REQUESTED → APPROVED'),
  rejected_at: stageTime('REQUESTED or APPROVED → REJECTED'),
  sent_at: stageTime('APPROVED → SENT'),
  completed_at: stageTime('SENT → COMPLETED (the payment is REFUNDED)'),
  failed_at: stageTime('SENT → FAILED'),
  cancelled_at: stageTime('REQUESTED → CANCELLED'),
});

export const REFUND_LIST_SCHEMA = listSchema(REFUND_SCHEMA);
