import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { TRANSACTION_STATUSES, VERIFICATION_METHODS } from '@pp/contracts';

/** PRODUCT-RULES §2.2 plus session_id, livemode (PRODUCT-RULES §D3), review_reasons and verified_by. */
export const TRANSACTION_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['id', 'etransfer_ref', 'amount', 'sender_name', 'sender_email', 'comment', 'status', 'verification_method', 'created_at', 'session_id', 'livemode'],
  properties: {
    id: { type: 'string', example: 'txn_k3v9x0c2p7d1m4q8r5t6w2y0' },
    etransfer_ref: { type: 'string', nullable: true, example: 'PP-7K3M9Q' },
    amount: { type: 'integer', description: 'CAD cents' },
    sender_name: { type: 'string' },
    sender_email: { type: 'string', nullable: true },
    comment: { type: 'string', nullable: true },
    status: { type: 'string', enum: [...TRANSACTION_STATUSES] },
    verification_method: { type: 'string', enum: [...VERIFICATION_METHODS] },
    created_at: { type: 'string', format: 'date-time' },
    session_id: { type: 'string', nullable: true },
    livemode: { type: 'boolean' },
    review_reasons: { type: 'array', items: { type: 'string' } },
    verified_by: { type: 'string', nullable: true },
  },
};
