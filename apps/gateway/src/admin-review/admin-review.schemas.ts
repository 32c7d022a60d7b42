import { type AdminPaymentView, type QuarantinedEmailView, QUARANTINE_STATUSES, type QuarantineRelease } from '@pp/contracts';
import { DATE_TIME, NULLABLE_STRING, type ViewProperties, viewSchema } from '../openapi/view-schema';
import { PAYMENT_PROPERTIES } from '../payments/payments.schemas';

/** Answer shapes of the platform admins' review routes (types in @pp/contracts). */
const RELEASE_PROPERTIES: ViewProperties<QuarantineRelease> = {
  released_at: DATE_TIME,
  merchant_id: { type: 'string' },
  disposition: { type: 'string', enum: ['confirmed', 'manual_review'] },
  payment_id: { type: 'string', example: 'txn_…' },
  released_by: { ...NULLABLE_STRING, description: 'The operator who asked for the release (a platform admin id, or admin-token:<id>); null when a repeated hand-off released it' },
};

export const QUARANTINE_RELEASE_SCHEMA = viewSchema<QuarantineRelease & { id: string }>({ id: { type: 'string', example: 'em_…' }, ...RELEASE_PROPERTIES });

export const QUARANTINED_EMAIL_SCHEMA = viewSchema<QuarantinedEmailView>({
  id: { type: 'string', example: 'em_…' },
  status: { type: 'string', enum: QUARANTINE_STATUSES },
  received_at: DATE_TIME,
  quarantined_at: DATE_TIME,
  recipients: {
    type: 'array',
    items: { type: 'string' },
    description: 'The signed recipient, then every To mailbox, then Delivered-To: no merchant has any of them as deposit address',
  },
  from: NULLABLE_STRING,
  authenticated: { type: 'boolean', description: 'DKIM proved the mail comes from Interac' },
  subject: { type: 'string' },
  amount_cents: { type: 'integer', nullable: true },
  memo: NULLABLE_STRING,
  reference_number: NULLABLE_STRING,
  sender_name: NULLABLE_STRING,
  reasons: { type: 'array', items: { type: 'string' }, description: 'Authentication and parse reasons (docs/INGEST-FORMATS.md)' },
  release: { ...viewSchema<QuarantineRelease>(RELEASE_PROPERTIES), nullable: true },
});

export const ADMIN_PAYMENT_SCHEMA = viewSchema<AdminPaymentView>({
  ...PAYMENT_PROPERTIES,
  merchant_id: { type: 'string' },
  email_id: { ...NULLABLE_STRING, description: 'The ingested e-mail (em_…) of a live transfer' },
  reference_number: { ...NULLABLE_STRING, description: 'Interac reference number from the e-mail' },
});
