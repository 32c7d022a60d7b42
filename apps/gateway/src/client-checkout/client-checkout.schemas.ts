import type { PayerSessionView } from '@pp/contracts';
import { DATE_TIME, viewSchema } from '../openapi/view-schema';

/** PayerSessionView (libs/contracts checkout-page.views.ts). */
export const PAYER_SESSION_SCHEMA = viewSchema<PayerSessionView>({
  id: { type: 'string' },
  merchant_id: { type: 'string' },
  livemode: { type: 'boolean' },
  status: { type: 'string', enum: ['PENDING', 'COMPLETED', 'EXPIRED'], description: 'EXPIRED as soon as expires_at has passed' },
  amount: { type: 'integer', description: 'CAD cents' },
  currency: { type: 'string', enum: ['CAD'] },
  memo: { type: 'string', example: 'PP-7K3M9Q' },
  success_url: { type: 'string' },
  cancel_url: { type: 'string' },
  expires_at: DATE_TIME,
});
