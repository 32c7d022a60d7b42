import type { Event } from './stored-event';

/**
 * Merchant-visible event types (PRODUCT-RULES §6, PRODUCT-RULES §D3). Each is appended in the
 * same append as the fact that caused it, gets a stable evt_ id there, is
 * projected to the merchant_events read model and delivered by webhooks.
 * Values are wire-visible: do not rename.
 */
export enum MerchantEventType {
  CheckoutSessionCompleted = 'checkout.session.completed',
  CheckoutSessionExpired = 'checkout.session.expired',
  PaymentConfirmed = 'payment.confirmed',
  PaymentPendingReview = 'payment.pending_review',
  PaymentFailed = 'payment.failed',
  PaymentRefunded = 'payment.refunded',
}

const MERCHANT_EVENT_TYPES: ReadonlySet<string> = new Set(Object.values(MerchantEventType));

export const isMerchantEventType = (type: string): type is MerchantEventType => MERCHANT_EVENT_TYPES.has(type);

/** `data` of every merchant-visible event (PRODUCT-RULES §6), schema version 1. */
export interface MerchantEventDataV1 {
  reference: string;
  amount: number;
  status: string;
  metadata: Record<string, unknown> | null;
  /** null for a payment no session of the merchant and mode matched (unknown memo, test session). */
  session_id: string | null;
  /** On payment.* events, and on checkout.session.completed (the payment that completed it). */
  payment_id?: string;
  [extra: string]: unknown;
}

/** A merchant-visible twin, as it sits in an aggregate's stream beside the fact that caused it. */
export type MerchantEvent = Event<MerchantEventType, MerchantEventDataV1>;
