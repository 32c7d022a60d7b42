import type { CheckoutSessionRef, TransferEvidence } from '@pp/contracts';
import type { CheckoutSession } from '../checkout-session/checkout-session.decider';
import { matchTransfer, payableSessionId, type TransferFacts } from './transfer-match.policy';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const B = 'payments@shop-b.example';
const ATTACKER = 'payer@attacker.example';

/** A genuine notice: signed by Interac, one To header with one mailbox, the merchant's deposit address. */
const genuine = (overrides: Partial<TransferEvidence> = {}): TransferEvidence => ({
  authenticated: true,
  authentication_reasons: [],
  signed_recipient: B,
  recipient_reasons: [],
  deposit_address: B,
  parse_reasons: [],
  ...overrides,
});

const pendingSession = (overrides: Partial<CheckoutSession> = {}): CheckoutSession => ({
  id: 'cs_live',
  merchant_id: 'mer_b',
  livemode: true,
  amount: 2500,
  currency: 'CAD',
  reference: 'order-1',
  memo: 'PP-7K3M9Q',
  client_secret: 'cs_live_secret_x',
  success_url: 'https://shop.example/ok',
  cancel_url: 'https://shop.example/no',
  metadata: null,
  created_at: '2026-11-22T11:50:00.000Z',
  expires_at: '2026-11-22T12:20:00.000Z',
  status: 'PENDING',
  completed_at: null,
  expired_at: null,
  transaction_id: null,
  ...overrides,
});

const OWNED: CheckoutSessionRef = { session_id: 'cs_live', merchant_id: 'mer_b', livemode: true };

/** Given a live session of merchant B for $25 named by the memo, when a $25 transfer with this evidence is matched. */
function given(session: CheckoutSession | null = pendingSession(), memoOwner: CheckoutSessionRef | undefined = OWNED) {
  return {
    when: (evidence: TransferEvidence, overrides: Partial<TransferFacts> = {}) =>
      matchTransfer({ merchant_id: 'mer_b', amount: 2500, evidence, memo_owner: memoOwner, session, now: NOW, ...overrides }),
  };
}

const review = (...reasons: string[]) => ({ status: 'REQUIRES_MANUAL_REVIEW', review_reasons: reasons });

describe('transfer-match policy', () => {
  it('given a pending live session, when a genuine notice signed to the merchant’s deposit address pays its amount: CONFIRMED', () => {
    expect(given().when(genuine())).toEqual({ status: 'CONFIRMED', review_reasons: [] });
  });

  it('compares the signed recipient and the deposit address without regard to case or surrounding space', () => {
    expect(given().when(genuine({ signed_recipient: ' Payments@Shop-B.example', deposit_address: B })).status).toBe('CONFIRMED');
  });

  describe('the recipient', () => {
    it('given a genuine notice signed to another address (routed by Delivered-To), when matched: recipient_mismatch, never confirmed', () => {
      expect(given().when(genuine({ signed_recipient: ATTACKER }))).toEqual(review('recipient_mismatch'));
    });

    it('given a second To header prepended above the signed one, when matched: recipient_not_unique and recipient_mismatch', () => {
      expect(given().when(genuine({ signed_recipient: ATTACKER, recipient_reasons: ['recipient_not_unique'] }))).toEqual(
        review('recipient_not_unique', 'recipient_mismatch'),
      );
    });

    it('given several To headers even when the signed one is the merchant’s: recipient_not_unique', () => {
      expect(given().when(genuine({ recipient_reasons: ['recipient_not_unique'] }))).toEqual(review('recipient_not_unique'));
    });

    it.each([['recipient_missing'], ['recipient_not_single_mailbox'], ['recipient_not_signed']] as const)(
      'given no signed single recipient (%s), when matched: that reason',
      (reason) => {
        expect(given().when(genuine({ signed_recipient: null, recipient_reasons: [reason] }))).toEqual(review(reason));
      },
    );

    it('given no signed recipient and no reason from the ingest, when matched: recipient_not_signed (fails closed)', () => {
      expect(given().when(genuine({ signed_recipient: null }))).toEqual(review('recipient_not_signed'));
    });
  });

  describe('the sender', () => {
    it('given an unauthenticated notice, when matched: unauthenticated_sender then its authentication reasons, recipient facts ignored', () => {
      const forged = genuine({ authenticated: false, authentication_reasons: ['dkim_missing'], signed_recipient: null, recipient_reasons: ['recipient_not_signed'] });
      expect(given().when(forged)).toEqual(review('unauthenticated_sender', 'dkim_missing'));
    });

    it('given authentication reasons on an authenticated notice (inconsistent evidence), when matched: review with those reasons', () => {
      expect(given().when(genuine({ authentication_reasons: ['dkim_headers_not_covered', 'header_not_signed:content-type'] }))).toEqual(
        review('dkim_headers_not_covered', 'header_not_signed:content-type'),
      );
    });
  });

  describe('the notice and the session', () => {
    it('given parse reasons, when matched: review with them', () => {
      expect(given().when(genuine({ parse_reasons: ['reference_missing'] }))).toEqual(review('reference_missing'));
    });

    it('given a session for another amount, when matched: wrong_amount', () => {
      expect(given(pendingSession({ amount: 3000 })).when(genuine())).toEqual(review('wrong_amount'));
    });

    it('given no session for the memo, when matched: unknown_memo with the parse reason', () => {
      expect(given(null, undefined).when(genuine({ parse_reasons: ['memo_missing'] }))).toEqual(review('unknown_memo', 'memo_missing'));
    });

    it('given a memo of the merchant’s test session, when matched: test_session', () => {
      expect(given(null, { ...OWNED, livemode: false }).when(genuine())).toEqual(review('test_session'));
    });

    it('given a memo of another merchant’s session, when matched: unknown_memo', () => {
      expect(given(null, { ...OWNED, merchant_id: 'mer_a' }).when(genuine())).toEqual(review('unknown_memo'));
    });

    it('given a completed session, when matched: session_completed', () => {
      expect(given(pendingSession({ status: 'COMPLETED' })).when(genuine())).toEqual(review('session_completed'));
    });

    it('given a session of no amount (a shape the edge refuses), when a notice of no amount matches it: wrong_amount, never CONFIRMED', () => {
      expect(given(pendingSession({ amount: 0 })).when(genuine(), { amount: 0 })).toEqual(review('wrong_amount'));
      expect(given(pendingSession({ amount: -5 })).when(genuine(), { amount: -5 })).toEqual(review('wrong_amount'));
    });

    it('given a session past its deadline, when matched: session_expired, with wrong_amount too when the amount differs', () => {
      expect(given(pendingSession({ expires_at: '2026-11-22T11:59:59.000Z' })).when(genuine())).toEqual(review('session_expired'));
      expect(given(pendingSession({ status: 'EXPIRED' })).when(genuine(), { amount: 100 })).toEqual(review('session_expired', 'wrong_amount'));
    });

    it('given every doubt at once, when matched: each reason once, session reasons first', () => {
      const evidence = genuine({ signed_recipient: ATTACKER, recipient_reasons: ['recipient_not_unique'], parse_reasons: ['reference_missing'] });
      expect(given(pendingSession({ amount: 1 })).when(evidence)).toEqual(review('wrong_amount', 'recipient_not_unique', 'recipient_mismatch', 'reference_missing'));
    });
  });

  describe('payableSessionId', () => {
    it('links only a live session of the same merchant', () => {
      expect(payableSessionId(OWNED, 'mer_b')).toBe('cs_live');
      expect(payableSessionId({ ...OWNED, livemode: false }, 'mer_b')).toBeNull();
      expect(payableSessionId({ ...OWNED, merchant_id: 'mer_a' }, 'mer_b')).toBeNull();
      expect(payableSessionId(undefined, 'mer_b')).toBeNull();
    });
  });
});
