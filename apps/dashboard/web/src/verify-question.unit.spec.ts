import { describe, expect, it } from '@jest/globals';
import { MESSAGES } from './i18n';
import { verifyQuestion } from './verify-question';

const inReview = (amount: number, review_reasons: string[]) => ({ status: 'REQUIRES_MANUAL_REVIEW', amount, review_reasons });

describe('what the Verify button asks first', () => {
  it('given a notice not proven to come from Interac, then it opens with the bank-account check, names the amount in CAD and the reasons in words', () => {
    const question = verifyQuestion(MESSAGES.en, 'en', inReview(50_000, ['unauthenticated_sender', 'dkim_missing', 'header_not_signed:from']), { status: 'PENDING', amount: 50_000 });
    expect(question.startsWith(`⚠ ${MESSAGES.en.warning} ${MESSAGES.en.checkBankFirst}`)).toBe(true);
    expect(question).toContain(`${MESSAGES.en.verifyConfirm} $500.00`);
    expect(question).toContain('Review reasons: Not proven to come from Interac; No DKIM signature; A header not covered by the signature (from).');
    expect(question).not.toContain(MESSAGES.en.verifyOtherAmount);
  });

  it('given a recipient mismatch and another amount than the session’s, then both warnings, the session’s amount named', () => {
    const question = verifyQuestion(MESSAGES.en, 'en', inReview(1, ['wrong_amount', 'recipient_mismatch']), { status: 'PENDING', amount: 50_000 });
    expect(question).toContain(MESSAGES.en.checkBankFirst);
    expect(question).toContain('$0.01');
    expect(question).toContain(`${MESSAGES.en.verifyOtherAmount} (Checkout session: $500.00)`);
  });

  it('given only an expired session, then no bank-account warning; a reason unknown to the page shows as its code', () => {
    const question = verifyQuestion(MESSAGES.en, 'en', inReview(2500, ['session_expired', 'brand_new_reason']), null);
    expect(question).not.toContain(MESSAGES.en.checkBankFirst);
    expect(question).toBe(`${MESSAGES.en.verifyConfirm} $25.00\n\nReview reasons: The checkout session had expired; brand_new_reason.`);
  });

  it('given French, then it asks in French, the amount written as French Canada writes it', () => {
    const question = verifyQuestion(MESSAGES.fr, 'fr', inReview(2500, ['recipient_not_signed']), null);
    expect(question).toContain(MESSAGES.fr.checkBankFirst);
    expect(question).toContain('25,00');
    expect(question).toContain('Le destinataire n’est pas couvert par la signature d’Interac');
  });
});
