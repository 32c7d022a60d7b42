/** Wire values: do not rename. */
export const CHECKOUT_SESSION_STATUSES = ['PENDING', 'COMPLETED', 'EXPIRED'] as const;
export type CheckoutSessionStatus = (typeof CHECKOUT_SESSION_STATUSES)[number];

/** 201 body of POST /v1/checkout/sessions (PRODUCT-RULES §4.1). */
export interface CheckoutSessionCreatedView {
  id: string;
  checkout_url: string;
  client_secret: string;
  status: CheckoutSessionStatus;
  livemode: boolean;
  reference: string;
  memo: string;
  expires_at: string;
}

/** 200 body of GET /v1/checkout/sessions/:id (PRODUCT-RULES §4.2). */
export interface CheckoutSessionView {
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
