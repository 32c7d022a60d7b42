import { CHECKOUT_PAGE_ACCESS } from '../checkout-page/checkout-page.access';
import { CHECKOUT_SESSION_ACCESS } from '../checkout-sessions/checkout-session.access';
import { healthSubject } from '../health';
import { IDENTITY_ACCESS } from '../identity/identity.access';
import { INGEST_ACCESS } from '../ingest/ingest.access';
import { LEDGER_ACCESS } from '../ledger/ledger.access';
import { MERCHANT_EVENT_ACCESS } from '../merchant-events/merchant-events.access';
import { PAYMENT_ACCESS } from '../payments/payments.access';
import { REFUND_ACCESS } from '../refunds/refunds.access';
import { SERVICE_NAMES } from '../services';
import type { Subject } from '../subjects';
import { WEBHOOK_ACCESS } from '../webhooks/webhooks.access';
import type { SubjectAccess } from './subject-access';

/** Every request-reply subject but the per-service health subjects (those are generated below). */
export type RequestSubject = Exclude<Subject, `health.${string}`>;

/** Typed so that every subject of SubjectMap must have exactly one entry: the server's permissions are generated from it. */
export type SubjectRegistry = { readonly [S in RequestSubject]: SubjectAccess };

export const SUBJECT_REGISTRY: SubjectRegistry = {
  ...CHECKOUT_PAGE_ACCESS,
  ...CHECKOUT_SESSION_ACCESS,
  ...IDENTITY_ACCESS,
  ...INGEST_ACCESS,
  ...LEDGER_ACCESS,
  ...MERCHANT_EVENT_ACCESS,
  ...PAYMENT_ACCESS,
  ...REFUND_ACCESS,
  ...WEBHOOK_ACCESS,
};

/**
 * Each service answers `health.<service>`; the gateway asks every one for its /readyz. Containers are probed on
 * their own ports (/readyz), not over the bus.
 */
export const HEALTH_ACCESS: Readonly<Record<string, SubjectAccess>> = Object.fromEntries(
  SERVICE_NAMES.map((service) => [healthSubject(service), { servedBy: service, callers: ['gateway'] }]),
);
