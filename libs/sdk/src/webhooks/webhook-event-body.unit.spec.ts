import { webhookEventBody } from './webhook-event-body';

describe('the body of a webhook delivery', () => {
  const event = (data: Record<string, unknown>) => ({ id: 'evt_1', type: 'payment.pending_review', created_at: '2026-11-23T18:00:00.000Z', livemode: false, data });

  it('given a payment no session matched, with an internal field, when shaped, then session_id and the internal field are left out', () => {
    const body = webhookEventBody(event({ reference: 'order-1', amount: 2500, status: 'REQUIRES_MANUAL_REVIEW', metadata: null, session_id: null, payment_id: 'tx_1', review_reasons: ['amount'] }));
    expect(body).toEqual({
      id: 'evt_1',
      type: 'payment.pending_review',
      created_at: '2026-11-23T18:00:00.000Z',
      livemode: false,
      data: { reference: 'order-1', amount: 2500, status: 'REQUIRES_MANUAL_REVIEW', metadata: null, payment_id: 'tx_1' },
    });
    expect(Object.keys(body.data)).not.toContain('session_id');
  });

  it('given a session event, when shaped, then it keeps session_id, has no payment_id, and lists the fields in their documented order', () => {
    const body = webhookEventBody({ ...event({ session_id: 'cs_1', metadata: { cart: '7' }, status: 'EXPIRED', amount: 100, reference: 'r' }), type: 'checkout.session.expired' });
    expect(JSON.stringify(body.data)).toBe('{"reference":"r","amount":100,"status":"EXPIRED","metadata":{"cart":"7"},"session_id":"cs_1"}');
  });

  it('given data missing its promised fields, when shaped, then each is still there, typed as documented', () => {
    expect(webhookEventBody(event({})).data).toEqual({ reference: '', amount: 0, status: '', metadata: null });
  });
});
