import { formatCad, type Language, type Messages, reasonLabel } from './i18n';
import { mustCheckBankFirst, verifyCompletesForOtherAmount } from './verify-payment.policy';

/**
 * What the Verify button asks before it confirms a payment in review, as approving a refund does: the bank-account
 * check first when the reasons doubt the notice (mustCheckBankFirst), then the amount it confirms, why the payment is
 * in review in words, and the session it would complete for another amount.
 */
export function verifyQuestion(
  t: Messages,
  language: Language,
  payment: { status: string; amount: number; review_reasons: readonly string[] },
  session: { status: string; amount: number } | null,
): string {
  const reasons = payment.review_reasons.map((reason) => reasonLabel(t, reason));
  return [
    mustCheckBankFirst(payment.review_reasons) ? `⚠ ${t.warning} ${t.checkBankFirst}` : null,
    `${t.verifyConfirm} ${formatCad(payment.amount, language)}`,
    reasons.length > 0 ? `${t.reviewReasons}: ${reasons.join('; ')}.` : null,
    session && verifyCompletesForOtherAmount(payment, session) ? `${t.verifyOtherAmount} (${t.session}: ${formatCad(session.amount, language)})` : null,
  ]
    .filter((line) => line !== null)
    .join('\n\n');
}
