import { describe, expect, it } from '@jest/globals';
import { RECIPIENT_REASONS, ReviewReason } from '@pp/contracts';
import { MONEY_PROVEN_REASONS, MONEY_UNPROVEN_REASONS, mustCheckBankFirst, verifyCompletesForOtherAmount } from './verify-payment.policy';

const inReview = (amount: number) => ({ status: 'REQUIRES_MANUAL_REVIEW', amount });
const session = (status: string, amount: number) => ({ status, amount });

describe('what verifying a payment in review would do to its session', () => {
  it('given a PENDING session of another amount (a transfer of $0.01 for a $500 order), then it would complete it for the session’s amount', () => {
    expect(verifyCompletesForOtherAmount(inReview(1), session('PENDING', 50_000))).toBe(true);
    expect(verifyCompletesForOtherAmount(inReview(0), session('PENDING', 50_000))).toBe(true);
  });

  it('given the session’s own amount, a session no longer PENDING, or no session, then there is nothing to warn of', () => {
    expect(verifyCompletesForOtherAmount(inReview(50_000), session('PENDING', 50_000))).toBe(false);
    expect(verifyCompletesForOtherAmount(inReview(1), session('EXPIRED', 50_000))).toBe(false);
    expect(verifyCompletesForOtherAmount(inReview(1), session('COMPLETED', 50_000))).toBe(false);
    expect(verifyCompletesForOtherAmount(inReview(1), null)).toBe(false);
    expect(verifyCompletesForOtherAmount({ status: 'CONFIRMED', amount: 1 }, session('PENDING', 50_000))).toBe(false);
  });
});

describe('whether verifying a payment in review must wait for a look at the bank account', () => {
  it.each(['unauthenticated_sender', 'recipient_mismatch', ...RECIPIENT_REASONS])('given %s (the notice not proven Interac’s, or not for this account), then it must', (reason) => {
    expect(mustCheckBankFirst(['wrong_amount', reason])).toBe(true);
  });

  it.each(['dkim_missing', 'dkim_failed', 'header_not_signed:from', 'header_not_unique:content-type', 'auth_timeout'])('given the authentication failure %s, then it must', (reason) => {
    expect(mustCheckBankFirst([reason])).toBe(true);
  });

  it('given only reasons of amount, memo or session state, or a parse reason, or none, then it need not', () => {
    expect(mustCheckBankFirst(['wrong_amount', 'unknown_memo', 'session_expired', 'session_completed', 'test_session', 'memo_missing'])).toBe(false);
    expect(mustCheckBankFirst([])).toBe(false);
  });

  it('given every review reason in contracts, then each is decided one way or the other (a new one cannot slip through unseen)', () => {
    expect([...MONEY_UNPROVEN_REASONS, ...MONEY_PROVEN_REASONS].sort()).toEqual(Object.values(ReviewReason).sort());
  });
});
