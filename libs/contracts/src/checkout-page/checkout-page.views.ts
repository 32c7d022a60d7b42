import type { CheckoutSessionStatus } from '../checkout-sessions';

/**
 * What the payer's page may know of a session. Never the reference, the
 * metadata or the client secret (PRODUCT-RULES §2.1: not shown to the payer).
 * `status` is the status the payer should see: a PENDING session past its
 * expires_at is EXPIRED even before the expiry job has recorded it.
 */
export interface PayerSessionView {
  id: string;
  merchant_id: string;
  livemode: boolean;
  status: CheckoutSessionStatus;
  amount: number;
  currency: 'CAD';
  memo: string;
  success_url: string;
  cancel_url: string;
  expires_at: string;
}

/** What the checkout pages show of a merchant, and where they may be framed. */
export interface MerchantProfileView {
  name: string;
  etransfer_email: string | null;
  /** Origins allowed to frame the embedded checkout (CSP frame-ancestors); empty: see the checkout app's default. */
  frame_ancestors: string[];
}
