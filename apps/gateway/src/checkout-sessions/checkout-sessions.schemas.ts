import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** Response shapes of PRODUCT-RULES §4.1 and §4.2 for the OpenAPI document (libs/contracts checkout-session.views.ts has the types). */
const dateTime: SchemaObject = { type: 'string', format: 'date-time' };
const status: SchemaObject = { type: 'string', enum: ['PENDING', 'COMPLETED', 'EXPIRED'] };
const memo: SchemaObject = { type: 'string', pattern: '^PP-[A-Z0-9]{6}$', example: 'PP-7K3M9Q' };

export const CHECKOUT_SESSION_CREATED_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['id', 'checkout_url', 'client_secret', 'status', 'livemode', 'reference', 'memo', 'expires_at'],
  properties: {
    id: { type: 'string' },
    checkout_url: { type: 'string', format: 'uri' },
    client_secret: { type: 'string', description: 'For the embedded checkout frame; keep it on the server side until handed to the frame' },
    status,
    livemode: { type: 'boolean' },
    reference: { type: 'string' },
    memo,
    expires_at: dateTime,
  },
};

export const CHECKOUT_SESSION_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['id', 'amount', 'currency', 'reference', 'memo', 'status', 'livemode', 'client_secret', 'success_url', 'cancel_url', 'metadata', 'expires_at', 'created_at'],
  properties: {
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
    expires_at: dateTime,
    created_at: dateTime,
  },
};
