import { type AppendStreamsRequest, CheckoutSessionEventType, MerchantEventType, PaymentEventType, RefundEventType } from '@pp/contracts';
import { type FirstEvent, refusalOfRefundAppend, storedStreamsToRead, type StoredStreams } from './refund-appends.policy';

const LIVE = { merchant_id: 'mer_1', livemode: true };
const OTHER = { merchant_id: 'mer_2', livemode: true };

/** What the ledger holds: payments pay_1 and pay_3 of mer_1 (50.00 each), pay_2 of mer_2, and ref_1 requested for pay_1. */
const stored: StoredStreams = new Map<string, FirstEvent>([
  ['transaction-pay_1', { data: { payment_id: 'pay_1', amount: 5000, ...LIVE }, metadata: LIVE }],
  ['transaction-pay_2', { data: { payment_id: 'pay_2', amount: 5000, ...OTHER }, metadata: OTHER }],
  ['transaction-pay_3', { data: { payment_id: 'pay_3', amount: 5000, ...LIVE }, metadata: LIVE }],
  ['refund-ref_1', { data: { refund_id: 'ref_1', payment_id: 'pay_1', amount: 5000, ...LIVE }, metadata: LIVE }],
]);

type Written = [streamId: string, expectedVersion: number, events: Array<[type: string, data: object]>];

const append = (streams: Written[], metadata = LIVE): AppendStreamsRequest => ({
  streams: streams.map(([stream_id, expected_version, events]) => ({ stream_id, expected_version, events: events.map(([type, data]) => ({ type, schema_version: 1, data })) })),
  metadata,
});

const requested = (refundId: string, paymentId = 'pay_1', extra: object = {}): [string, object] => [
  RefundEventType.Requested,
  { refund_id: refundId, payment_id: paymentId, amount: 5000, ...LIVE, ...extra },
];
const completed = (refundId = 'ref_1', paymentId = 'pay_1'): [string, object] => [RefundEventType.Completed, { refund_id: refundId, payment_id: paymentId }];
const paymentRefund = (paymentId = 'pay_1', refundId = 'ref_1', named = paymentId): Array<[string, object]> => [
  [PaymentEventType.Refunded, { payment_id: named, refund_id: refundId }],
  [MerchantEventType.PaymentRefunded, { payment_id: paymentId, amount: 5000 }],
];

/** Refund ref_1 of pay_1 completed, as the live flow's last stage writes it. */
const liveCompletion = (): Written[] => [
  ['refund-ref_1', 3, [completed()]],
  ['transaction-pay_1', 2, paymentRefund()],
];

const refusal = (request: AppendStreamsRequest) => refusalOfRefundAppend(request, stored);

describe('refund appends policy: what the refunds service may write', () => {
  describe('given appends as the refunds decider writes them', () => {
    it('when a refund is requested, or completed with the payment’s refund and its merchant-visible twin, then it may', () => {
      expect(refusal(append([['refund-ref_9', 0, [requested('ref_9')]]]))).toBeUndefined();
      expect(refusal(append(liveCompletion()))).toBeUndefined();
    });

    it('when a test refund’s whole flow and the payment’s refund go in one append, then it may', () => {
      const flow: Array<[string, object]> = [requested('ref_9'), [RefundEventType.Approved, { refund_id: 'ref_9' }], completed('ref_9')];
      expect(refusal(append([['refund-ref_9', 0, flow], ['transaction-pay_1', 2, paymentRefund('pay_1', 'ref_9')]]))).toBeUndefined();
    });

    it('then the streams read are those written past their start and the payments requested for', () => {
      expect(storedStreamsToRead(append([['refund-ref_9', 0, [requested('ref_9')]]]))).toEqual(['transaction-pay_1']);
      expect(storedStreamsToRead(append(liveCompletion())).sort()).toEqual(['refund-ref_1', 'transaction-pay_1']);
    });
  });

  it('given streams required unchanged of any kind, then they do not matter: they are read, not written', () => {
    expect(refusal({ ...append([['refund-ref_1', 1, [[RefundEventType.Approved, { refund_id: 'ref_1' }]]]]), unchanged: [{ stream_id: 'checkout_session-cs_1', version: 3 }] })).toBeUndefined();
  });

  it('given a payment confirmed, or a transfer recorded, on a transaction stream (a forged payment), then it is refused', () => {
    expect(refusal(append([['transaction-pay_1', 2, [[PaymentEventType.Recorded, {}]]]]))).toBe('The refunds service may not append transaction.recorded to transaction streams');
    expect(refusal(append([['transaction-pay_1', 2, [[MerchantEventType.PaymentConfirmed, {}]]]]))).toBe('The refunds service may not append payment.confirmed to transaction streams');
  });

  it('given a session stream, or any stream outside refunds and transactions, then it is refused whatever the events', () => {
    expect(refusal(append([['checkout_session-cs_1', 1, [[CheckoutSessionEventType.Completed, {}]]]]))).toBe('The refunds service may not append to checkout_session streams');
    expect(refusal(append([['constructor-x', 0, [requested('x')]]]))).toBe('The refunds service may not append to constructor streams');
  });

  it('given a refund stream carrying another kind of event, then it is refused', () => {
    expect(refusal(append([['refund-ref_1', 3, [[MerchantEventType.PaymentRefunded, { refund_id: 'ref_1' }]]]]))).toBe('The refunds service may not append payment.refunded to refund streams');
  });

  describe('a refund’s own events', () => {
    it('given an event naming another refund than its stream’s (the read model updates the one named), then it is refused', () => {
      expect(refusal(append([['refund-ref_1', 3, [[RefundEventType.Cancelled, { refund_id: 'ref_2' }]]]]))).toBe('refund.cancelled on refund-ref_1 must name that stream\'s refund');
    });

    it('given a request for another merchant’s payment, for another merchant in its data, or for more than the payment, then it is refused', () => {
      expect(refusal(append([['refund-ref_9', 0, [requested('ref_9', 'pay_2')]]]))).toBe('refund.requested on refund-ref_9 must name a payment of the append\'s merchant and mode');
      expect(refusal(append([['refund-ref_9', 0, [requested('ref_9', 'pay_1', OTHER)]]]))).toBe('refund.requested on refund-ref_9 must name the append\'s merchant and mode');
      expect(refusal(append([['refund-ref_9', 0, [requested('ref_9', 'pay_1', { amount: 500_000 })]]]))).toBe('refund.requested on refund-ref_9 must be for the payment\'s amount');
      expect(refusal(append([['refund-ref_9', 0, [requested('ref_9', 'pay_404')]]]))).toBe('refund.requested on refund-ref_9 must name a payment of the append\'s merchant and mode');
    });
  });

  describe('streams of the append’s merchant and mode', () => {
    it('given another merchant’s payment refunded under this merchant’s scope (its refund completed for it), then it is refused', () => {
      expect(refusal(append([['refund-ref_1', 3, [completed('ref_1', 'pay_2')]], ['transaction-pay_2', 2, paymentRefund('pay_2')]]))).toBe(
        'transaction-pay_2 belongs to another merchant or mode than the append',
      );
    });

    it('given a stream written past its start that does not exist, or an append in another mode than its streams, then it is refused', () => {
      expect(refusal(append([['refund-ref_404', 2, [[RefundEventType.Approved, { refund_id: 'ref_404' }]]]]))).toBe('refund-ref_404 does not exist');
      expect(refusal(append(liveCompletion(), { merchant_id: 'mer_1', livemode: false }))).toBe('refund-ref_1 belongs to another merchant or mode than the append');
    });
  });

  describe('the payment’s refund', () => {
    it('given transaction.refunded or payment.refunded naming another payment than its stream’s, then it is refused', () => {
      expect(refusal(append([['refund-ref_1', 3, [completed()]], ['transaction-pay_1', 2, paymentRefund('pay_1', 'ref_1', 'pay_3')]]))).toBe(
        'transaction.refunded on transaction-pay_1 must name that stream\'s payment',
      );
      const twinNamesAnother: Array<[string, object]> = [paymentRefund()[0], [MerchantEventType.PaymentRefunded, { payment_id: 'pay_3' }]];
      expect(refusal(append([['refund-ref_1', 3, [completed()]], ['transaction-pay_1', 2, twinNamesAnother]]))).toBe('payment.refunded on transaction-pay_1 must name that stream\'s payment');
    });

    it('given no refund completed in the same append, or one completed for another payment, then it is refused', () => {
      const alone = 'transaction.refunded on transaction-pay_1 must come with its refund\'s refund.completed for that payment, in the same append';
      expect(refusal(append([['transaction-pay_1', 2, paymentRefund()]]))).toBe(alone);
      expect(refusal(append([['refund-ref_1', 3, [completed('ref_1', 'pay_3')]], ['transaction-pay_1', 2, paymentRefund()]]))).toBe(alone);
    });

    it('given a refund requested for one payment completed for another of the merchant’s (its open-refund rule bypassed), then it is refused', () => {
      expect(refusal(append([['refund-ref_1', 3, [completed('ref_1', 'pay_3')]], ['transaction-pay_3', 2, paymentRefund('pay_3')]]))).toBe(
        'transaction.refunded on transaction-pay_3 names a refund requested for another payment',
      );
    });

    it('given payment.refunded alone, twice (the merchant told twice), or two refunds of the payment, then it is refused', () => {
      const [refunded, twin] = paymentRefund();
      const carry = (events: Array<[string, object]>) => refusal(append([['refund-ref_1', 3, [completed()]], ['transaction-pay_1', 2, events]]));
      expect(carry([twin])).toBe('A refund\'s append to transaction-pay_1 must carry one transaction.refunded');
      expect(carry([refunded, refunded, twin])).toBe('A refund\'s append to transaction-pay_1 must carry one transaction.refunded');
      expect(carry([refunded, twin, twin])).toBe('A refund\'s append to transaction-pay_1 must carry one payment.refunded');
    });
  });
});
