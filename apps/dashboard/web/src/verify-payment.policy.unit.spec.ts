import { describe, expect, it } from '@jest/globals';
import { verifyCompletesForOtherAmount } from './verify-payment.policy';

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
