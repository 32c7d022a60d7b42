import { describe, expect, it } from '@jest/globals';
import { PAYMENT_STATUSES, REFUND_HOLDING_STATUSES, REFUND_STATUSES } from '@pp/contracts';
import { REFUND_HOLDING, refundOffer } from './refund-request.policy';

describe('the refund a payment’s page offers', () => {
  it('holds the payment by the server’s own stages', () => {
    expect([...REFUND_HOLDING].sort()).toEqual([...REFUND_HOLDING_STATUSES].sort());
  });

  it('given a confirmed payment with no refund, or only ended ones, then offers the request form', () => {
    expect(refundOffer({ status: 'CONFIRMED' }, [])).toBe('request');
    expect(refundOffer({ status: 'CONFIRMED' }, [{ status: 'CANCELLED' }, { status: 'REJECTED' }, { status: 'FAILED' }])).toBe('request');
  });

  it.each(['REQUESTED', 'APPROVED', 'SENT'])('given a confirmed payment with a %s refund, then shows it in progress, with no form', (status) => {
    expect(refundOffer({ status: 'CONFIRMED' }, [{ status: 'CANCELLED' }, { status }])).toBe('in_progress');
  });

  it('given a payment that is not confirmed, then offers nothing, whatever its refunds', () => {
    for (const status of PAYMENT_STATUSES.filter((status) => status !== 'CONFIRMED')) {
      for (const refunds of [[], REFUND_STATUSES.map((refund) => ({ status: refund }))]) expect([status, refundOffer({ status }, refunds)]).toEqual([status, 'none']);
    }
  });
});
