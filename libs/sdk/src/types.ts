/*
 * The API's wire shapes, as the gateway answers them. The SDK is published on
 * its own and carries these declarations itself; each is checked identical to
 * the view in libs/contracts that the gateway and its OpenAPI document are
 * built from (contract-drift.int.spec.ts fails `npm run typecheck` and
 * `npm test` when one drifts).
 */

/** Merchant-visible event types (docs/PRODUCT-RULES.md §6). */
export const EVENT_TYPES = [
  'checkout.session.completed',
  'checkout.session.expired',
  'payment.confirmed',
  'payment.pending_review',
  'payment.failed',
  'payment.refunded',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export type CheckoutSessionStatus = 'PENDING' | 'COMPLETED' | 'EXPIRED';

/** 201 body of POST /v1/checkout/sessions. */
export interface CheckoutSessionCreated {
  id: string;
  checkout_url: string;
  client_secret: string;
  status: CheckoutSessionStatus;
  livemode: boolean;
  reference: string;
  memo: string;
  expires_at: string;
}

/** GET /v1/checkout/sessions/:id. */
export interface CheckoutSession {
  id: string;
  amount: number;
  currency: 'CAD';
  reference: string;
  memo: string;
  status: CheckoutSessionStatus;
  livemode: boolean;
  client_secret: string;
  success_url: string;
  cancel_url: string;
  metadata: Record<string, unknown> | null;
  expires_at: string;
  created_at: string;
}

export interface CreateCheckoutSessionParams {
  /** Integer cents, CAD. */
  amount: number;
  currency: 'cad';
  reference: string;
  success_url: string;
  cancel_url: string;
  metadata?: Record<string, unknown> | null;
}

export const PAYMENT_STATUSES = ['PENDING', 'CONFIRMED', 'FAILED', 'REFUNDED', 'REQUIRES_MANUAL_REVIEW'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export type VerificationMethod = 'AUTO_EMAIL' | 'MANUAL_ADMIN' | 'PSP_PAY';

/** A payment (the API calls it a transaction): GET /v1/payments. */
export interface Payment {
  id: string;
  etransfer_ref: string | null;
  amount: number;
  sender_name: string;
  sender_email: string | null;
  comment: string | null;
  status: PaymentStatus;
  verification_method: VerificationMethod;
  created_at: string;
  session_id: string | null;
  livemode: boolean;
  review_reasons: string[];
  verified_by: string | null;
}

export interface ListParams {
  /** Page size, 1 to 50 (default 10). The iterator keeps paging until the list ends. */
  limit?: number;
  /** Id of the last item already seen: the list continues after it. */
  starting_after?: string;
}

export interface ListPaymentsParams extends ListParams {
  /** Partial match on etransfer_ref, comment or the session reference. */
  reference?: string;
  status?: PaymentStatus;
}

export type WebhookDeliveryStatus = 'PENDING' | 'SUCCESS' | 'FAILED' | 'EXHAUSTED';

export interface WebhookDeliveryAttempt {
  webhook_id: string;
  url: string;
  delivery_status: WebhookDeliveryStatus;
  http_status: number | null;
  attempt: number;
  retry_count: number;
  latency_ms: number | null;
  error_message: string | null;
  next_retry_at: string | null;
  created_at: string;
}

/** An event as GET /v1/events lists it. */
export interface Event {
  id: string;
  type: string;
  livemode: boolean;
  data: Record<string, unknown>;
  created_at: string;
}

/** GET /v1/events/:id: the event and its webhook delivery attempts. */
export interface EventDetail extends Event {
  deliveries: WebhookDeliveryAttempt[];
}

export interface ListEventsParams extends ListParams {
  type?: EventType;
}

export interface ResendEventResult {
  event_id: string;
  webhook_ids: string[];
}

export type RefundStatus = 'REQUESTED' | 'APPROVED' | 'REJECTED' | 'SENT' | 'COMPLETED' | 'FAILED' | 'CANCELLED';

/** A full refund of a payment, in CAD cents. */
export interface Refund {
  id: string;
  payment_id: string;
  merchant_id: string;
  amount: number;
  status: RefundStatus;
  livemode: boolean;
  requested_by: string;
  reason: string | null;
  outbound_reference: string | null;
  evidence_note: string | null;
  rejection_reason: string | null;
  failure_reason: string | null;
  created_at: string;
  requested_at: string;
  approved_at: string | null;
  rejected_at: string | null;
  sent_at: string | null;
  completed_at: string | null;
  failed_at: string | null;
  cancelled_at: string | null;
}

export interface CreateRefundParams {
  payment_id: string;
  reason?: string;
}

export interface ListRefundsParams extends ListParams {
  payment_id?: string;
  status?: RefundStatus;
}

export type WebhookEndpointStatus = 'enabled' | 'disabled';

export interface WebhookEndpoint {
  id: string;
  url: string;
  description: string | null;
  enabled_events: string[];
  livemode: boolean;
  status: WebhookEndpointStatus;
  disabled_reason: string | null;
  created_at: string;
}

/** Create and rotate-secret answers: the only times the secret is shown. */
export interface WebhookEndpointWithSecret extends WebhookEndpoint {
  secret: string;
  previous_secret_expires_at: string | null;
}

export interface CreateWebhookEndpointParams {
  url: string;
  /** Event types, or ['*'] (the default) for all. */
  enabled_events?: Array<EventType | '*'>;
  description?: string;
}

export interface RotateWebhookEndpointSecretParams {
  /** Seconds the old secret keeps signing beside the new one (default 86400, at most 86400); 0 stops it at once. */
  previous_secret_expires_in?: number;
}

export interface DeletedWebhookEndpoint {
  id: string;
  deleted: true;
}

export type SimulatedOutcome = 'confirmed' | 'failed' | 'requires_manual_review';

/** Exactly one of sessionId and reference. */
export type SimulatePaymentParams = { outcome: SimulatedOutcome } & ({ sessionId: string; reference?: never } | { reference: string; sessionId?: never });

export interface SimulatePaymentResult {
  transaction: Payment;
  session: CheckoutSession;
}

/** `data` of a payment.* event. */
export interface PaymentEventData {
  reference: string;
  amount: number;
  status: string;
  metadata: Record<string, unknown> | null;
  /** Absent for a payment no checkout session matched. */
  session_id?: string;
  payment_id: string;
}

/** `data` of a checkout.session.* event. */
export interface CheckoutSessionEventData {
  reference: string;
  amount: number;
  /** The completing payment's (CONFIRMED) on checkout.session.completed; EXPIRED on checkout.session.expired. */
  status: string;
  metadata: Record<string, unknown> | null;
  session_id: string;
  /** On checkout.session.completed: the payment that completed it. */
  payment_id?: string;
}

interface WebhookEventOf<T extends EventType, D> {
  id: string;
  type: T;
  created_at: string;
  livemode: boolean;
  data: D;
}

/** The body of a webhook delivery, discriminated by `type`. */
export type WebhookEvent =
  | WebhookEventOf<'payment.confirmed', PaymentEventData>
  | WebhookEventOf<'payment.pending_review', PaymentEventData>
  | WebhookEventOf<'payment.failed', PaymentEventData>
  | WebhookEventOf<'payment.refunded', PaymentEventData>
  | WebhookEventOf<'checkout.session.completed', CheckoutSessionEventData>
  | WebhookEventOf<'checkout.session.expired', CheckoutSessionEventData>;
