import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** PayerSessionView (libs/contracts checkout-page.views.ts) for the OpenAPI document. */
export const PAYER_SESSION_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['id', 'merchant_id', 'livemode', 'status', 'amount', 'currency', 'memo', 'success_url', 'cancel_url', 'expires_at'],
  properties: {
    id: { type: 'string' },
    merchant_id: { type: 'string' },
    livemode: { type: 'boolean' },
    status: { type: 'string', enum: ['PENDING', 'COMPLETED', 'EXPIRED'], description: 'EXPIRED as soon as expires_at has passed' },
    amount: { type: 'integer', description: 'CAD cents' },
    currency: { type: 'string', enum: ['CAD'] },
    memo: { type: 'string', example: 'PP-7K3M9Q' },
    success_url: { type: 'string' },
    cancel_url: { type: 'string' },
    expires_at: { type: 'string', format: 'date-time' },
  },
};
