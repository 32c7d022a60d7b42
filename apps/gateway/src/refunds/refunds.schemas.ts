import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { REFUND_STATUSES } from '@pp/contracts';

const timestamp = (description: string): SchemaObject => ({ type: 'string', format: 'date-time', nullable: true, description });

/** PRODUCT-RULES §2.5 with the fields §D3 settles (libs/contracts refunds has the type). */
export const REFUND_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['id', 'payment_id', 'amount', 'status', 'livemode', 'requested_by', 'created_at'],
  properties: {
    id: { type: 'string', example: 'rf_k3v9x0c2p7d1m4q8r5t6w2y0' },
    payment_id: { type: 'string', example: 'txn_k3v9x0c2p7d1m4q8r5t6w2y0' },
    merchant_id: { type: 'string' },
    amount: { type: 'integer', description: "CAD cents: always the payment's full amount" },
    status: { type: 'string', enum: [...REFUND_STATUSES] },
    livemode: { type: 'boolean' },
    requested_by: { type: 'string', description: "The API key id, or the dashboard user, that asked for it" },
    reason: { type: 'string', nullable: true },
    outbound_reference: { type: 'string', nullable: true, description: 'Reference of the outbound e-transfer (live completion)' },
    evidence_note: { type: 'string', nullable: true, description: 'What the operator checked (live completion)' },
    rejection_reason: { type: 'string', nullable: true },
    failure_reason: { type: 'string', nullable: true, description: 'Why the outbound transfer failed after SENT' },
    created_at: { type: 'string', format: 'date-time' },
    requested_at: { type: 'string', format: 'date-time' },
    approved_at: timestamp('REQUESTED → APPROVED'),
    rejected_at: timestamp('REQUESTED → REJECTED'),
    sent_at: timestamp('APPROVED → SENT'),
    completed_at: timestamp('SENT → COMPLETED (the payment is REFUNDED)'),
    failed_at: timestamp('SENT → FAILED'),
    cancelled_at: timestamp('REQUESTED or APPROVED → CANCELLED'),
  },
};

export const REFUND_LIST_SCHEMA: SchemaObject = { type: 'array', items: REFUND_SCHEMA };
