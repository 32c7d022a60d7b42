import {
  type AppendStreamsReply,
  type DecideRefundReply,
  DomainError,
  ErrorCode,
  type MerchantScope,
  PaymentEventType,
  REFUND_OPEN_RULE,
  type RequestRefundCommand,
  type StreamAppend,
  transactionStreamId,
} from '@pp/contracts';
import type { AppendOptions, BusClient } from '@pp/platform';
import { InMemoryEventStore, inMemoryRuntime } from '@pp/testing';
import { PaymentRefunds } from './payment-refunds';
import { PAYMENT_ALREADY_REFUNDED, RequestRefundHandler } from './request-refund.handler';

const T0 = new Date('2026-11-22T01:00:00.000Z');
const OPEN = 'A refund is already open for this payment';

/** The ledger's answer when another refund holds the payment: its unique index refuses the append. */
class PaymentHeldByAnotherRefund extends InMemoryEventStore {
  override async appendStreams(_streams: StreamAppend[], _scope: MerchantScope, _options?: AppendOptions): Promise<AppendStreamsReply> {
    throw new DomainError(ErrorCode.Conflict, OPEN, { rule: REFUND_OPEN_RULE });
  }
}

/** Sessions: the payment is CONFIRMED (refundable) the first time it is asked; then `next` answers. */
class PaymentsAnswering extends PaymentRefunds {
  private asked = 0;

  constructor(private readonly next: () => Promise<DecideRefundReply>) {
    super({} as BusClient);
  }

  override decide(_scope: MerchantScope, paymentId: string, refundId: string): Promise<DecideRefundReply> {
    if (this.asked++ > 0) return this.next();
    return Promise.resolve({
      payment: { id: paymentId, livemode: true, amount: 2500 } as DecideRefundReply['payment'],
      append: {
        stream_id: transactionStreamId(paymentId),
        expected_version: 2,
        events: [{ type: PaymentEventType.Refunded, schema_version: 1, data: { payment_id: paymentId, refund_id: refundId, refunded_at: T0.toISOString() } }],
      },
    });
  }
}

const command = { merchant_id: 'mer_1', livemode: true, payment_id: 'txn_1', requested_by: 'key_1' } as RequestRefundCommand;

function handlerWith(payments: PaymentRefunds) {
  const { runner } = inMemoryRuntime({ now: () => T0 }, new PaymentHeldByAnotherRefund());
  return new RequestRefundHandler(runner, payments);
}

describe('RequestRefundHandler, when another refund holds the payment', () => {
  it('given sessions does not answer the second look: the refusal stands (409 refund_open), not a 503 inviting retries', async () => {
    const unavailable = new DomainError(ErrorCode.ServiceUnavailable, 'sessions did not answer');
    const handler = handlerWith(new PaymentsAnswering(() => Promise.reject(unavailable)));
    await expect(handler.request(command)).rejects.toMatchObject({ code: ErrorCode.Conflict, message: OPEN, details: { rule: REFUND_OPEN_RULE } });
  });

  it('given the holding refund completed meanwhile: answered as refunded rather than open', async () => {
    const refunded = () => Promise.resolve<DecideRefundReply>({ payment: {} as DecideRefundReply['payment'], append: null });
    const handler = handlerWith(new PaymentsAnswering(refunded));
    await expect(handler.request(command)).rejects.toMatchObject({ code: ErrorCode.Conflict, message: PAYMENT_ALREADY_REFUNDED });
  });
});
