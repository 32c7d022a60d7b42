import type { ResendEventReply, WebhookEndpointView, WebhookEndpointWithSecretView, WebhookSubjects } from '@pp/contracts';
import { DATE_TIME, NULLABLE_DATE_TIME, NULLABLE_STRING, type ViewProperties, viewSchema } from '../openapi/view-schema';

/** Answer shapes of the webhook endpoint routes (libs/contracts webhooks/webhook.views.ts). */
const ENDPOINT_PROPERTIES: ViewProperties<WebhookEndpointView> = {
  id: { type: 'string', example: 'wh_…' },
  url: { type: 'string', format: 'uri' },
  description: NULLABLE_STRING,
  enabled_events: { type: 'array', items: { type: 'string' } },
  livemode: { type: 'boolean' },
  status: { type: 'string', enum: ['enabled', 'disabled'] },
  disabled_reason: NULLABLE_STRING,
  created_at: DATE_TIME,
};

export const WEBHOOK_ENDPOINT_SCHEMA = viewSchema<WebhookEndpointView>(ENDPOINT_PROPERTIES);

export const WEBHOOK_ENDPOINT_WITH_SECRET_SCHEMA = viewSchema<WebhookEndpointWithSecretView>({
  ...ENDPOINT_PROPERTIES,
  secret: { type: 'string', description: 'whsec_…, shown only now: signs every delivery (X-Service-Signature)' },
  previous_secret_expires_at: NULLABLE_DATE_TIME,
});

export const RESEND_SCHEMA = viewSchema<ResendEventReply>({
  event_id: { type: 'string' },
  webhook_ids: { type: 'array', items: { type: 'string' } },
});

export const DELETED_ENDPOINT_SCHEMA = viewSchema<WebhookSubjects['webhooks.endpoints.delete.v1']['reply']>({
  id: { type: 'string' },
  deleted: { type: 'boolean', description: 'Always true' },
});
