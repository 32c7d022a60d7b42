import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { MerchantEventType, WebhookDeliveryStatus } from '@pp/contracts';

/** PRODUCT-RULES §2.3 and §2.4 for the OpenAPI document (libs/contracts merchant-events has the types). */
export const MERCHANT_EVENT_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['id', 'type', 'livemode', 'data', 'created_at'],
  properties: {
    id: { type: 'string', example: 'evt_k3v9x0c2p7d1m4q8r5t6w2y0' },
    type: { type: 'string', enum: Object.values(MerchantEventType) },
    livemode: { type: 'boolean' },
    data: {
      type: 'object',
      required: ['reference', 'amount', 'status', 'metadata', 'session_id'],
      properties: {
        reference: { type: 'string' },
        amount: { type: 'integer', description: 'CAD cents' },
        status: { type: 'string' },
        metadata: { type: 'object', additionalProperties: true, nullable: true },
        session_id: { type: 'string', nullable: true },
        payment_id: { type: 'string' },
      },
    },
    created_at: { type: 'string', format: 'date-time' },
  },
};

const DELIVERY_SCHEMA: SchemaObject = {
  type: 'object',
  properties: {
    webhook_id: { type: 'string' },
    url: { type: 'string', format: 'uri' },
    delivery_status: { type: 'string', enum: Object.values(WebhookDeliveryStatus) },
    http_status: { type: 'integer', nullable: true },
    attempt: { type: 'integer' },
    retry_count: { type: 'integer' },
    latency_ms: { type: 'integer', nullable: true },
    error_message: { type: 'string', nullable: true },
  },
};

export const MERCHANT_EVENT_DETAIL_SCHEMA: SchemaObject = {
  ...MERCHANT_EVENT_SCHEMA,
  required: [...(MERCHANT_EVENT_SCHEMA.required ?? []), 'deliveries'],
  properties: { ...MERCHANT_EVENT_SCHEMA.properties, deliveries: { type: 'array', items: DELIVERY_SCHEMA } },
};
