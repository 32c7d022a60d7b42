import {
  type DecideRefundReply,
  ErrorCode,
  MerchantEventType,
  type MerchantScope,
  PaymentEventType,
  REFUND_STAGE_RULE,
  type RefundEvent,
  RefundEventType,
  refundStreamId,
  transactionStreamId,
} from '@pp/contracts';
import type { BusClient } from '@pp/platform';
import { inMemoryRuntime } from '@pp/testing';
import { PaymentRefunds } from './payment-refunds';
import { RefundStageHandler } from './refund-stage.handler';

const T0 = new Date('2026-11-22T01:00:00.000Z');
const SCOPE = { merchant_id: 'mer_1', livemode: true };
const REFUND = refundStreamId('rf_1');
const PAYMENT = transactionStreamId('txn_1');

const requested: RefundEvent = {
  type: RefundEventType.Requested,
  schema_version: 1,
  data: {
    refund_id: 'rf_1',
    payment_id: 'txn_1',
    ...SCOPE,
    amount: 2500,
    requested_by: 'key_1',
    reason: null,
    requested_at: T0.toISOString(),
  },
};
const approved: RefundEvent = { type: RefundEventType.Approved, schema_version: 1, data: { refund_id: 'rf_1', approved_by: 'admin:a', approved_at: T0.toISOString() } };
const sent: RefundEvent = { type: RefundEventType.Sent, schema_version: 1, data: { refund_id: 'rf_1', sent_by: 'admin:a', sent_at: T0.toISOString() } };

/** The payment aggregate's answer, as sessions would give it: refund the payment at its version 2. */
class PaymentAtVersionTwo extends PaymentRefunds {
  constructor() {
    super({} as BusClient);
  }

  override async decide(_scope: MerchantScope, paymentId: string, refundId: string): Promise<DecideRefundReply> {
    return {
      payment: {} as DecideRefundReply['payment'],
      append: {
        stream_id: transactionStreamId(paymentId),
        expected_version: 2,
        events: [{ type: PaymentEventType.Refunded, schema_version: 1, data: { payment_id: paymentId, refund_id: refundId, refunded_at: T0.toISOString() } }],
      },
    };
  }
}

function handlerOver(...history: RefundEvent[]) {
  const { store, runner } = inMemoryRuntime({ now: () => T0 });
  store.given(REFUND, history, SCOPE);
  return { store, handler: new RefundStageHandler(runner, new PaymentAtVersionTwo()) };
}

const types = (events: readonly { type: string }[]) => events.map((event) => event.type);

describe('refund stage handler over the in-memory event store', () => {
  it('given a requested refund, when approved twice: one refund.approved, both answers APPROVED, only the first having changed it', async () => {
    const { store, handler } = handlerOver(requested);
    expect(await handler.approve({ refund_id: 'rf_1', admin_id: 'admin:a' })).toMatchObject({ status: 'APPROVED', changed: true });
    expect(await handler.approve({ refund_id: 'rf_1', admin_id: 'admin:b' })).toMatchObject({ status: 'APPROVED', changed: false });
    expect(types(store.events(REFUND))).toEqual([RefundEventType.Requested, RefundEventType.Approved]);
  });

  it('given an approved refund, when two operators mark it sent: the first claims it, the second is refused naming the first, one refund.sent', async () => {
    const { store, handler } = handlerOver(requested, approved);
    const claim = await handler.markSent({ refund_id: 'rf_1', admin_id: 'adm_1' });
    expect(claim).toMatchObject({ status: 'SENT', changed: true });
    expect(claim).not.toHaveProperty('sent_by'); // the view shows no operator's id
    const second = await handler.markSent({ refund_id: 'rf_1', admin_id: 'adm_2' }).catch((error: unknown) => error);
    expect(second).toMatchObject({ code: ErrorCode.Conflict, message: 'Refund is SENT; it is already claimed by adm_1', details: { rule: REFUND_STAGE_RULE } });
    // The claimer's own retry (a lost answer) is answered as it is.
    expect(await handler.markSent({ refund_id: 'rf_1', admin_id: 'adm_1' })).toMatchObject({ status: 'SENT', changed: false });
    expect(types(store.events(REFUND))).toEqual([RefundEventType.Requested, RefundEventType.Approved, RefundEventType.Sent]);
  });

  it('given another merchant’s refund, when that merchant cancels: not found, nothing appended', async () => {
    const { store, handler } = handlerOver(requested);
    const refusal = await handler.cancel({ merchant_id: 'mer_2', livemode: true, refund_id: 'rf_1', cancelled_by: 'usr_2' }).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ code: ErrorCode.NotFound, message: 'Refund not found' });
    expect(store.events(REFUND)).toHaveLength(1);
  });

  it('given a sent refund and a payment at version 2, when completed: the refund and the payment move in one append', async () => {
    const { store, handler } = handlerOver(requested, approved, sent);
    store.given(PAYMENT, [
      { type: PaymentEventType.Recorded, schema_version: 1, data: {} },
      { type: MerchantEventType.PaymentConfirmed, schema_version: 1, data: {} },
    ]);
    const appends = jest.spyOn(store, 'appendStreams');
    const view = await handler.complete({ refund_id: 'rf_1', admin_id: 'admin:a', outbound_reference: 'CA1', evidence_note: 'Bank #1' });
    expect(view).toMatchObject({ status: 'COMPLETED', outbound_reference: 'CA1', changed: true });
    expect(appends).toHaveBeenCalledTimes(1);
    expect(types(store.events(REFUND))).toEqual([RefundEventType.Requested, RefundEventType.Approved, RefundEventType.Sent, RefundEventType.Completed]);
    expect(types(store.events(PAYMENT)).slice(2)).toEqual([PaymentEventType.Refunded]);

    // Retried with the reference spelt otherwise: the same transfer, so the same refund, unchanged.
    const retried = await handler.complete({ refund_id: 'rf_1', admin_id: 'admin:b', outbound_reference: 'ca 1', evidence_note: 'Bank #1' });
    expect(retried).toEqual({ ...view, changed: false });
    expect(appends).toHaveBeenCalledTimes(1);
  });

  it("given a requested refund, when an approval races the merchant's cancel: exactly one is appended, the other is refused on the new stage", async () => {
    const { store, handler } = handlerOver(requested);
    const appends = jest.spyOn(store, 'appendStreams');
    const [approval, cancel] = await Promise.allSettled([
      handler.approve({ refund_id: 'rf_1', admin_id: 'admin:a' }),
      handler.cancel({ ...SCOPE, refund_id: 'rf_1', cancelled_by: 'key_1' }),
    ]);
    const stages = types(store.events(REFUND)).slice(1);
    expect(stages).toHaveLength(1);
    // Both decided on REQUESTED; the loser's append met CONCURRENCY_CONFLICT and its next round refused.
    expect(appends).toHaveBeenCalledTimes(2);
    const loser = stages[0] === RefundEventType.Approved ? cancel : approval;
    expect(loser).toMatchObject({ status: 'rejected', reason: { code: ErrorCode.Conflict, details: { rule: REFUND_STAGE_RULE } } });
  });
});
