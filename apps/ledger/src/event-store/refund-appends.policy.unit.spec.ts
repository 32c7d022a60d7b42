import { type AppendStreamsRequest, CheckoutSessionEventType, MerchantEventType, PaymentEventType, RefundEventType } from '@pp/contracts';
import { refusalOfRefundAppend } from './refund-appends.policy';

const append = (...streams: Array<[string, string[]]>): AppendStreamsRequest => ({
  streams: streams.map(([stream_id, types]) => ({ stream_id, expected_version: 0, events: types.map((type) => ({ type, schema_version: 1, data: {} })) })),
  metadata: { merchant_id: 'mer_1', livemode: true },
});

describe('refund appends policy: what the refunds service may write', () => {
  it('given a refund requested, or completed with the payment’s refund and its merchant-visible twin, then it may', () => {
    expect(refusalOfRefundAppend(append(['refund-ref_1', [RefundEventType.Requested]]))).toBeUndefined();
    expect(
      refusalOfRefundAppend(append(['refund-ref_1', [RefundEventType.Completed]], ['transaction-pay_1', [PaymentEventType.Refunded, MerchantEventType.PaymentRefunded]])),
    ).toBeUndefined();
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
