import type { ReceivedWebhook } from '@pp/testing';
import { isVerifiedDeliveryOf } from './webhook-latency';

const delivery = (sessionId: string, valid: boolean, path = '/bench-latency'): ReceivedWebhook => ({
  path,
  rawBody: Buffer.from(JSON.stringify({ type: 'payment.confirmed', data: { session_id: sessionId } })),
  headers: {},
  eventId: 'evt_1',
  receivedAt: 0,
  verification: { bodySignatureValid: valid, timestampedSignatureValid: valid, secretsMatchedByV2: [], valid },
  answeredStatus: valid ? 200 : 401,
});

describe("the webhook latency path's timed delivery", () => {
  it("given a delivery of the payment's session whose signature did not verify, then the payment is not timed to it", () => {
    expect(isVerifiedDeliveryOf('cs_1', delivery('cs_1', false))).toBe(false);
  });

  it("given the payment's verified delivery, then it is timed to it; another session's or another path's is not", () => {
    expect(isVerifiedDeliveryOf('cs_1', delivery('cs_1', true))).toBe(true);
    expect(isVerifiedDeliveryOf('cs_1', delivery('cs_2', true))).toBe(false);
    expect(isVerifiedDeliveryOf('cs_1', delivery('cs_1', true, '/bench-fanout-0'))).toBe(false);
  });
});
