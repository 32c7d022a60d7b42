import { CheckoutSessionEventType, checkoutSessionStreamId, MerchantEventType } from '@pp/contracts';
import { checkoutSessionCreated } from '@pp/testing';
import { type CheckoutSession, fold } from '../checkout-session/checkout-session.decider';
import { sessionPart } from './session-completion';

const T0 = new Date('2026-11-22T01:00:00.000Z');
const AT = new Date(T0.getTime() + 60_000);
const session = fold([checkoutSessionCreated({ merchant_id: 'mer_1', livemode: true }, T0)]) as CheckoutSession;
const STREAM = checkoutSessionStreamId('cs1');

describe('a payment’s part in its session’s append', () => {
  it('given a payment that completes the session, then the completion is appended at the loaded version and nothing else is required', () => {
    const part = sessionPart(session, 3, AT, 'txn_1', true);
    expect(part.unchanged).toEqual([]);
    expect(part.append).toEqual([{ stream_id: STREAM, expected_version: 3, events: expect.any(Array) }]);
    expect(part.append[0].events.map((event) => event.type)).toEqual([CheckoutSessionEventType.Completed, MerchantEventType.CheckoutSessionCompleted]);
    expect(part.append[0].events[0].data).toMatchObject({ session_id: 'cs1', transaction_id: 'txn_1', completed_at: AT.toISOString() });
  });

  it('given a payment that does not complete it, then nothing is appended to the session and the append needs it still at the loaded version', () => {
    expect(sessionPart(session, 3, AT, 'txn_1', false)).toEqual({ append: [], unchanged: [{ stream_id: STREAM, version: 3 }] });
  });

  it('given a payment with no session, then it has no part in any session’s stream', () => {
    expect(sessionPart(null, 0, AT, 'txn_1', false)).toEqual({ append: [], unchanged: [] });
  });
});
