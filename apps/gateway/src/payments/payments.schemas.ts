import { PAYMENT_STATUSES, type PaymentView, VERIFICATION_METHODS } from '@pp/contracts';
import { DATE_TIME, NULLABLE_STRING, type ViewProperties, viewSchema } from '../openapi/view-schema';

/** PaymentView: PRODUCT-RULES §2.2 plus session_id, livemode (PRODUCT-RULES §D3), review_reasons and verified_by. */
export const PAYMENT_PROPERTIES: ViewProperties<PaymentView> = {
  id: { type: 'string', example: 'txn_k3v9x0c2p7d1m4q8r5t6w2y0' },
  etransfer_ref: { ...NULLABLE_STRING, example: 'PP-7K3M9Q' },
  amount: { type: 'integer', description: 'CAD cents' },
  sender_name: { type: 'string' },
  sender_email: NULLABLE_STRING,
  comment: NULLABLE_STRING,
  status: { type: 'string', enum: PAYMENT_STATUSES },
  verification_method: { type: 'string', enum: VERIFICATION_METHODS },
  created_at: DATE_TIME,
  session_id: NULLABLE_STRING,
  livemode: { type: 'boolean' },
  review_reasons: { type: 'array', items: { type: 'string' }, description: 'Why it needs (or needed) review; empty when it did not' },
  verified_by: { ...NULLABLE_STRING, description: 'The dashboard user who verified it manually' },
};

export const PAYMENT_SCHEMA = viewSchema<PaymentView>(PAYMENT_PROPERTIES);
