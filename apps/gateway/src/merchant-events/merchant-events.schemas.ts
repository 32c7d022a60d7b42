import { type MerchantEventDetailView, MerchantEventType, type MerchantEventView, type WebhookDeliveryAttemptView, WebhookDeliveryStatus } from '@pp/contracts';
import { DATE_TIME, NULLABLE_DATE_TIME, NULLABLE_STRING, type ViewProperties, viewSchema } from '../openapi/view-schema';

/** PRODUCT-RULES §2.3 and §2.4 (libs/contracts merchant-events has the types). */
const EVENT_PROPERTIES: ViewProperties<MerchantEventView> = {
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
  created_at: DATE_TIME,
};

export const MERCHANT_EVENT_SCHEMA = viewSchema<MerchantEventView>(EVENT_PROPERTIES);

const DELIVERY_SCHEMA = viewSchema<WebhookDeliveryAttemptView>({
  webhook_id: { type: 'string' },
  url: { type: 'string', format: 'uri', description: 'The endpoint’s URL, whole for a key holding webhooks.write; else only its origin (scheme, host and port)' },
  delivery_status: { type: 'string', enum: Object.values(WebhookDeliveryStatus) },
  http_status: { type: 'integer', nullable: true },
  attempt: { type: 'integer' },
  retry_count: { type: 'integer' },
  latency_ms: { type: 'integer', nullable: true },
  error_message: NULLABLE_STRING,
  next_retry_at: NULLABLE_DATE_TIME,
  created_at: DATE_TIME,
});

export const MERCHANT_EVENT_DETAIL_SCHEMA = viewSchema<MerchantEventDetailView>({
  ...EVENT_PROPERTIES,
  deliveries: { type: 'array', items: DELIVERY_SCHEMA },
});
