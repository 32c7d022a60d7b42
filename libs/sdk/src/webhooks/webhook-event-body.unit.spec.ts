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

  it('given data without an amount or a reference, which every merchant event carries, when shaped, then it throws instead of inventing 0 or ""', () => {
    expect(() => webhookEventBody(event({ reference: 'order-1', status: 'CONFIRMED', metadata: null }))).toThrow(/^webhookEventBody: event evt_1 \(payment.pending_review\) has no amount/);
    expect(() => webhookEventBody(event({ reference: 'order-1', amount: null, status: 'CONFIRMED', metadata: null }))).toThrow(TypeError);
    expect(() => webhookEventBody(event({ reference: 'order-1', amount: '2500', status: 'CONFIRMED', metadata: null }))).toThrow(/has no amount/);
    expect(() => webhookEventBody(event({ amount: 2500, status: 'CONFIRMED', metadata: null }))).toThrow(/has no reference/);
    expect(() => webhookEventBody(event({}))).toThrow(TypeError);
  });

  it('given a payment with neither a session nor a transfer reference (its reference ""), when shaped, then it keeps "" and the other missing fields typed as documented', () => {
    expect(webhookEventBody(event({ reference: '', amount: 0 })).data).toEqual({ reference: '', amount: 0, status: '', metadata: null });
  });
});
