import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { QUARANTINE_STATUSES } from '@pp/contracts';
import { TRANSACTION_SCHEMA } from '../payments/payments.schemas';

/** Response shapes of the platform admins' review routes (types in @pp/contracts). */
const dateTime: SchemaObject = { type: 'string', format: 'date-time' };
const nullableString: SchemaObject = { type: 'string', nullable: true };

const RELEASE_PROPERTIES: Record<string, SchemaObject> = {
  released_at: dateTime,
  merchant_id: { type: 'string' },
  disposition: { type: 'string', enum: ['confirmed', 'manual_review'] },
  payment_id: { type: 'string', example: 'txn_…' },
};

export const QUARANTINE_RELEASE_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['id', ...Object.keys(RELEASE_PROPERTIES)],
  properties: { id: { type: 'string', example: 'em_…' }, ...RELEASE_PROPERTIES },
};

export const QUARANTINED_EMAIL_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['id', 'status', 'received_at', 'quarantined_at', 'recipients', 'from', 'authenticated', 'subject', 'amount_cents', 'memo', 'reference_number', 'sender_name', 'reasons', 'release'],
  properties: {
    id: { type: 'string', example: 'em_…' },
    status: { type: 'string', enum: [...QUARANTINE_STATUSES] },
    received_at: dateTime,
    quarantined_at: dateTime,
    recipients: { type: 'array', items: { type: 'string' }, description: 'The signed recipient, then every To mailbox, then Delivered-To: no merchant has any of them as deposit address' },
    from: nullableString,
    authenticated: { type: 'boolean', description: 'DKIM proved the mail comes from Interac' },
    subject: { type: 'string' },
    amount_cents: { type: 'integer', nullable: true },
    memo: nullableString,
    reference_number: nullableString,
    sender_name: nullableString,
    reasons: { type: 'array', items: { type: 'string' }, description: 'Authentication and parse reasons (docs/INGEST-FORMATS.md)' },
    release: { type: 'object', nullable: true, required: Object.keys(RELEASE_PROPERTIES), properties: RELEASE_PROPERTIES },
  },
};

export const ADMIN_TRANSACTION_SCHEMA: SchemaObject = {
  ...TRANSACTION_SCHEMA,
  required: [...(TRANSACTION_SCHEMA.required ?? []), 'merchant_id', 'email_id', 'reference_number'],
  properties: {
    ...TRANSACTION_SCHEMA.properties,
    merchant_id: { type: 'string' },
    email_id: { ...nullableString, description: 'The ingested e-mail (em_…) of a live transfer' },
    reference_number: { ...nullableString, description: 'Interac reference number from the e-mail' },
  },
};
