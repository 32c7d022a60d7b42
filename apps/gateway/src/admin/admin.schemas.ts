import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { SCOPES } from '../identity/scopes';

/** Response shapes of the admin routes, for the OpenAPI document (identity.views.ts has the types). */
const dateTime: SchemaObject = { type: 'string', format: 'date-time' };
const nullableDateTime: SchemaObject = { ...dateTime, nullable: true };

export const API_KEY_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['id', 'merchant_id', 'type', 'livemode', 'redacted', 'scopes', 'rate_limit_per_second', 'expires_at', 'revoked_at', 'created_at'],
  properties: {
    id: { type: 'string', example: 'key_x1y2z3' },
    merchant_id: { type: 'string' },
    type: { type: 'string', enum: ['secret', 'restricted', 'publishable'] },
    livemode: { type: 'boolean' },
    redacted: { type: 'string', example: 'pp_live_…a1B2' },
    scopes: { type: 'array', items: { type: 'string', enum: [...SCOPES] } },
    rate_limit_per_second: { type: 'integer', nullable: true },
    expires_at: nullableDateTime,
    revoked_at: nullableDateTime,
    created_at: dateTime,
  },
};

export const ISSUED_API_KEY_SCHEMA: SchemaObject = {
  ...API_KEY_SCHEMA,
  required: [...(API_KEY_SCHEMA.required ?? []), 'key'],
  properties: { ...API_KEY_SCHEMA.properties, key: { type: 'string', description: 'The key itself, shown only in this response' } },
};

export const MERCHANT_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['id', 'name', 'email', 'etransfer_email', 'frame_ancestors', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string', example: 'mer_x1y2z3' },
    name: { type: 'string' },
    email: { type: 'string', format: 'email' },
    etransfer_email: { type: 'string', format: 'email', nullable: true },
    frame_ancestors: { type: 'array', items: { type: 'string', example: 'https://shop.example.com' }, description: 'Origins allowed to frame the embedded checkout' },
    created_at: dateTime,
    updated_at: dateTime,
  },
};

export const MERCHANT_WITH_KEYS_SCHEMA: SchemaObject = {
  ...MERCHANT_SCHEMA,
  required: [...(MERCHANT_SCHEMA.required ?? []), 'keys'],
  properties: { ...MERCHANT_SCHEMA.properties, keys: { type: 'array', items: API_KEY_SCHEMA } },
};

export const PROVISIONED_MERCHANT_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['merchant_id', 'keys', 'dashboard_user'],
  properties: {
    merchant_id: { type: 'string' },
    keys: {
      type: 'object',
      description: 'Shown only in this response',
      required: ['live_secret', 'test_secret', 'live_publishable', 'test_publishable'],
      properties: {
        live_secret: { type: 'string', example: 'pp_live_…' },
        test_secret: { type: 'string', example: 'pp_live_test_…' },
        live_publishable: { type: 'string', example: 'pp_pub_…' },
        test_publishable: { type: 'string', example: 'pp_pub_test_…' },
      },
    },
    dashboard_user: {
      type: 'object',
      required: ['id', 'email', 'role'],
      properties: {
        id: { type: 'string' },
        email: { type: 'string', format: 'email' },
        role: { type: 'string', enum: ['owner', 'admin'] },
        password: { type: 'string', description: 'Present only when generated; shown once' },
      },
    },
  },
};
