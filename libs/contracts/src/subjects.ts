import type { CheckoutPageSubjects } from './checkout-page';
import type { CheckoutSessionSubjects } from './checkout-sessions';
import type { HealthSubjects } from './health';
import type { IdentitySubjects } from './identity';
import type { IngestSubjects } from './ingest';
import type { LedgerSubjects } from './ledger';
import type { MerchantEventSubjects } from './merchant-events';
import type { AdminPaymentSubjects, PaymentSubjects, PaymentSummarySubjects } from './payments';
import type { RefundSubjects } from './refunds';
import type { WebhookSubjects } from './webhooks';

/**
 * One typed map from NATS subject to request and reply payloads, composed of
 * each domain's own map (one line per domain below). Wire names carry a
 * version and are never derived from class names. Do not rename a subject
 * without a migration: running replicas listen on it.
 */
export interface SubjectMap extends HealthSubjects, CheckoutSessionSubjects, CheckoutPageSubjects, LedgerSubjects, IngestSubjects, WebhookSubjects, PaymentSubjects, MerchantEventSubjects, IdentitySubjects, AdminPaymentSubjects, PaymentSummarySubjects, RefundSubjects {}

export type Subject = keyof SubjectMap & string;
export type RequestOf<S extends Subject> = SubjectMap[S]['request'];
export type ReplyOf<S extends Subject> = SubjectMap[S]['reply'];
