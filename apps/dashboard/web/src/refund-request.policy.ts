import type { RefundStatus } from '@pp/contracts';

/**
 * The stages that hold a payment's one refund: the server refuses a new request while one of these exists (409 'A
 * refund is already open for this payment'). Contracts' REFUND_HOLDING_STATUSES, written out as the bundle imports
 * no values from contracts; the spec checks that the two agree.
 */
export const REFUND_HOLDING: readonly RefundStatus[] = ['REQUESTED', 'APPROVED', 'SENT', 'COMPLETED'];

/**
 * What a payment's page offers for a refund: the request form for a confirmed payment none of whose refunds holds
 * it; a note that one is in progress while one does (a second request would only be refused); nothing otherwise.
 */
export function refundOffer(payment: { status: string }, refunds: ReadonlyArray<{ status: string }>): 'request' | 'in_progress' | 'none' {
  if (payment.status !== 'CONFIRMED') return 'none';
  return refunds.some((refund) => (REFUND_HOLDING as readonly string[]).includes(refund.status)) ? 'in_progress' : 'request';
}
