import type { CheckoutSessionCreatedView, CheckoutSessionStatus, CheckoutSessionView } from '@pp/contracts';
import { DATE_TIME, viewSchema } from '../openapi/view-schema';

/** Answer shapes of PRODUCT-RULES §4.1 and §4.2 (libs/contracts checkout-session.views.ts). */
const STATUSES: readonly CheckoutSessionStatus[] = ['PENDING', 'COMPLETED', 'EXPIRED'];
const status = { type: 'string', enum: STATUSES } as const;
const memo = { type: 'string', pattern: '^PP-[A-Z0-9]{6}$', example: 'PP-7K3M9Q' } as const;

export const CHECKOUT_SESSION_CREATED_SCHEMA = viewSchema<CheckoutSessionCreatedView>({
  id: { type: 'string' },
  checkout_url: { type: 'string', format: 'uri' },
  client_secret: { type: 'string', description: 'For the embedded checkout frame; keep it on the server side until handed to the frame' },
  status,
  livemode: { type: 'boolean' },
  reference: { type: 'string' },
  memo,
  expires_at: DATE_TIME,
});

export const CHECKOUT_SESSION_SCHEMA = viewSchema<CheckoutSessionView>({
  id: { type: 'string' },
  amount: { type: 'integer', minimum: 1, description: 'CAD cents' },
  currency: { type: 'string', enum: ['CAD'] },
  reference: { type: 'string' },
  memo,
  status,
  livemode: { type: 'boolean' },
  client_secret: { type: 'string' },
  success_url: { type: 'string', format: 'uri' },
  cancel_url: { type: 'string', format: 'uri' },
  metadata: { type: 'object', additionalProperties: true, nullable: true },
  expires_at: DATE_TIME,
  created_at: DATE_TIME,
});
