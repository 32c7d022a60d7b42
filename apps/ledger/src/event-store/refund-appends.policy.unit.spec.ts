import { type AppendStreamsRequest, CheckoutSessionEventType, MerchantEventType, PaymentEventType, RefundEventType } from '@pp/contracts';
import { refusalOfRefundAppend } from './refund-appends.policy';

const append = (...streams: Array<[string, string[]]>): AppendStreamsRequest => ({
  streams: streams.map(([stream_id, types]) => ({ stream_id, expected_version: 0, events: types.map((type) => ({ type, schema_version: 1, data: {} })) })),
  metadata: { merchant_id: 'mer_1', livemode: true },
});

interface CompletionShape {
  completedOn?: string | null;
  completedPayment?: string;
  refundedPayment?: string;
  refundedRefund?: string;
  merchantEventPayment?: string;
  transactionEvents?: string[];
}

/** A refund ref_1 of payment pay_1 completed as the refunds decider writes it, changed where the test says. */
const completion = (shape: CompletionShape = {}): AppendStreamsRequest => {
  const dataOf: Record<string, object> = {
    [PaymentEventType.Refunded]: { payment_id: shape.refundedPayment ?? 'pay_1', refund_id: shape.refundedRefund ?? 'ref_1' },
    [MerchantEventType.PaymentRefunded]: { payment_id: shape.merchantEventPayment ?? 'pay_1', amount: 5000 },
  };
  const transaction = {
    stream_id: 'transaction-pay_1',
    expected_version: 2,
    events: (shape.transactionEvents ?? [PaymentEventType.Refunded, MerchantEventType.PaymentRefunded]).map((type) => ({ type, schema_version: 1, data: dataOf[type] })),
  };
  const refundStream = shape.completedOn === undefined ? 'refund-ref_1' : shape.completedOn;
  const completed = { type: RefundEventType.Completed, schema_version: 1, data: { refund_id: 'ref_1', payment_id: shape.completedPayment ?? 'pay_1' } };
  return {
    streams: [...(refundStream === null ? [] : [{ stream_id: refundStream, expected_version: 3, events: [completed] }]), transaction],
    metadata: { merchant_id: 'mer_1', livemode: true },
  };
};

describe('refund appends policy: what the refunds service may write', () => {
  it('given a refund requested, or completed with the payment’s refund and its merchant-visible twin, then it may', () => {
    expect(refusalOfRefundAppend(append(['refund-ref_1', [RefundEventType.Requested]]))).toBeUndefined();
    expect(refusalOfRefundAppend(completion())).toBeUndefined();
  });

  describe('the payment’s refund', () => {
    it('given transaction.refunded naming another payment than its stream’s (the read models update the one named), then it is refused', () => {
      expect(refusalOfRefundAppend(completion({ refundedPayment: 'pay_2' }))).toBe('transaction.refunded on transaction-pay_1 must name that stream\'s payment');
      expect(refusalOfRefundAppend(completion({ merchantEventPayment: 'pay_2' }))).toBe('payment.refunded on transaction-pay_1 must name that stream\'s payment');
    });

    it('given no refund completed in the same append, or one completed for another payment or on another refund’s stream, then it is refused', () => {
      const refusal = 'transaction.refunded on transaction-pay_1 must come with its refund\'s refund.completed for that payment, in the same append';
      expect(refusalOfRefundAppend(completion({ completedOn: null }))).toBe(refusal);
      expect(refusalOfRefundAppend(completion({ completedPayment: 'pay_2' }))).toBe(refusal);
      expect(refusalOfRefundAppend(completion({ completedOn: 'refund-ref_9' }))).toBe(refusal);
      expect(refusalOfRefundAppend(completion({ refundedRefund: 'ref_9' }))).toBe(refusal);
    });

    it('given payment.refunded alone (the merchant told of a refund the payment never had), or two refunds of the payment, then it is refused', () => {
      expect(refusalOfRefundAppend(completion({ transactionEvents: [MerchantEventType.PaymentRefunded] }))).toBe('A refund\'s append to transaction-pay_1 must carry one transaction.refunded');
      expect(refusalOfRefundAppend(completion({ transactionEvents: [PaymentEventType.Refunded, PaymentEventType.Refunded] }))).toBe(
        'A refund\'s append to transaction-pay_1 must carry one transaction.refunded',
      );
    });
  });

  it('given streams required unchanged of any kind, then they do not matter: they are read, not written', () => {
    expect(refusalOfRefundAppend({ ...append(['refund-ref_1', [RefundEventType.Approved]]), unchanged: [{ stream_id: 'checkout_session-cs_1', version: 3 }] })).toBeUndefined();
  });

  it('given a payment confirmed, or a transfer recorded, on a transaction stream (a forged payment), then it is refused', () => {
    expect(refusalOfRefundAppend(append(['transaction-pay_1', [PaymentEventType.Recorded, MerchantEventType.PaymentConfirmed]]))).toBe(
      'The refunds service may not append transaction.recorded to transaction streams',
    );
    expect(refusalOfRefundAppend(append(['refund-ref_1', [RefundEventType.Requested]], ['transaction-pay_1', [MerchantEventType.PaymentConfirmed]]))).toBe(
      'The refunds service may not append payment.confirmed to transaction streams',
    );
  });

  it('given a session stream, or any stream outside refunds and transactions, then it is refused whatever the events', () => {
    expect(refusalOfRefundAppend(append(['checkout_session-cs_1', [CheckoutSessionEventType.Completed]]))).toBe('The refunds service may not append to checkout_session streams');
    expect(refusalOfRefundAppend(append(['constructor-x', [RefundEventType.Requested]]))).toBe('The refunds service may not append to constructor streams');
  });

  it('given a refund stream carrying another kind of event, then it is refused', () => {
    expect(refusalOfRefundAppend(append(['refund-ref_1', [MerchantEventType.PaymentRefunded]]))).toBe('The refunds service may not append payment.refunded to refund streams');
  });
});
