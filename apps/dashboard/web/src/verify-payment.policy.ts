/**
 * Whether verifying a payment in review would complete its session for an amount other than the one paid: a
 * verified payment completes its session while the session is still PENDING (PRODUCT-RULES §3.2), and the
 * merchant's `checkout.session.completed` carries the session's amount, so a transfer of the wrong amount must
 * not be verified by a click that does not say so.
 */
export function verifyCompletesForOtherAmount(
  payment: { status: string; amount: number },
  session: { status: string; amount: number } | null,
): boolean {
  return payment.status === 'REQUIRES_MANUAL_REVIEW' && session?.status === 'PENDING' && session.amount !== payment.amount;
}
