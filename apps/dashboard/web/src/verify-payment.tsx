import type { PaymentView } from '@pp/contracts';
import { api, query } from './api';
import { useI18n } from './i18n';
import { ActionButton } from './ui';
import { mustCheckBankFirst, verifyCompletesForOtherAmount } from './verify-payment.policy';
import { verifyQuestion } from './verify-question';

/**
 * The Verify action of a payment in review: it confirms the payment (MANUAL_ADMIN), and may complete its session, so
 * it is asked first (verify-question.ts). When the reasons doubt the notice, the page says so beside the button too,
 * before anyone clicks: only the money in the bank account proves such a payment.
 */
export function VerifyPayment({ payment, session, mode, done }: { payment: PaymentView; session: { status: string; amount: number } | null; mode: string; done: () => Promise<void> }) {
  const { t, language } = useI18n();
  const verify = async () => {
    if (!window.confirm(verifyQuestion(t, language, payment, session))) return;
    await api(`/api/payments/${payment.id}/verify${query({ mode })}`, { method: 'POST' });
    await done();
  };
  return (
    <div className="verify">
      {mustCheckBankFirst(payment.review_reasons) ? (
        <p className="warning warning-strong check-bank-first">
          <strong>{t.warning}</strong> {t.checkBankFirst}
        </p>
      ) : null}
      {verifyCompletesForOtherAmount(payment, session) ? <p className="warning">{t.verifyOtherAmount}</p> : null}
      <ActionButton label={t.verify} run={verify} />
    </div>
  );
}
