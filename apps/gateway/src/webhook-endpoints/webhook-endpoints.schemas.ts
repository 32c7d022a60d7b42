import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** Answer shapes for the OpenAPI document (libs/contracts webhooks/webhook.views.ts has the types). */
const endpointProperties: Record<string, SchemaObject> = {
  id: { type: 'string', example: 'wh_…' },
  url: { type: 'string', format: 'uri' },
  description: { type: 'string', nullable: true },
  enabled_events: { type: 'array', items: { type: 'string' } },
  livemode: { type: 'boolean' },
  status: { type: 'string', enum: ['enabled', 'disabled'] },
  disabled_reason: { type: 'string', nullable: true },
  created_at: { type: 'string', format: 'date-time' },
};

export const WEBHOOK_ENDPOINT_SCHEMA: SchemaObject = { type: 'object', properties: endpointProperties };

export const WEBHOOK_ENDPOINT_WITH_SECRET_SCHEMA: SchemaObject = {
  type: 'object',
  properties: {
    ...endpointProperties,
    secret: { type: 'string', description: 'whsec_…, shown only now: signs every delivery (X-Service-Signature)' },
    previous_secret_expires_at: { type: 'string', format: 'date-time', nullable: true },
  },
};

export const RESEND_SCHEMA: SchemaObject = {
  type: 'object',
  properties: { event_id: { type: 'string' }, webhook_ids: { type: 'array', items: { type: 'string' } } },
};
