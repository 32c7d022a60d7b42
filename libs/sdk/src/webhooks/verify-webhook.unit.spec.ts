import crypto from 'node:crypto';
import { runInNewContext } from 'node:vm';
import { signTestPayload, verify, WebhookVerificationError, type WebhookVerificationFailure } from './verify-webhook';
import { signatureHeaders } from './webhook-signature';

const event = {
  id: 'evt_abc123def456',
  type: 'payment.confirmed',
  created_at: '2026-11-23T18:00:00.000Z',
  livemode: false,
  data: { reference: 'order-1', amount: 2500, status: 'CONFIRMED', metadata: null, session_id: 'cs_1', payment_id: 'txn_1' },
};
const NOW = 1_790_000_000;
const secret = 'whsec_current';
const oldSecret = 'whsec_previous';

const failure = (run: () => unknown): WebhookVerificationFailure | 'passed' => {
  try {
    run();
    return 'passed';
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
};

describe('webhooks.verify', () => {
  afterEach(() => jest.restoreAllMocks());

  it('given a delivery signed with the secret, when verified on its raw bytes, then it returns the typed event', () => {
    const { body, headers } = signTestPayload(event, secret, { timestamp: NOW });
    const verified = verify(Buffer.from(body), headers, secret, { nowSeconds: NOW });
    expect(verified).toEqual(event);
    if (verified.type === 'payment.confirmed') expect(verified.data.payment_id).toBe('txn_1');
  });

  it('accepts the body as a string, a Uint8Array, and headers as a fetch Headers or in any case', () => {
    const { body, headers } = signTestPayload(event, secret, { timestamp: NOW });
    const upper = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toUpperCase(), value]));
    expect(verify(body, upper, secret, { nowSeconds: NOW }).id).toBe(event.id);
    expect(verify(new TextEncoder().encode(body), new Headers(headers), [secret], { nowSeconds: NOW }).id).toBe(event.id);
  });

  it('given the body as a Uint8Array from another realm (a vm context, a worker), when verified, then it is read as bytes, not refused as a parsed object', () => {
    const { body, headers } = signTestPayload(event, secret, { timestamp: NOW });
    const foreign = runInNewContext('new Uint8Array(bytes)', { bytes: [...Buffer.from(body)] }) as Uint8Array;
    expect(foreign instanceof Uint8Array).toBe(false);
    expect(verify(foreign, headers, secret, { nowSeconds: NOW })).toEqual(event);
  });

  it('given the body as an ArrayBuffer (fetch’s request.arrayBuffer()), when verified, then it is read as the bytes that arrived', async () => {
    const { body, headers } = signTestPayload(event, secret, { timestamp: NOW });
    const arrayBuffer = await new Response(body).arrayBuffer();
    expect(arrayBuffer).toBeInstanceOf(ArrayBuffer);
    expect(verify(arrayBuffer, headers, secret, { nowSeconds: NOW })).toEqual(event);
    const changed = await new Response(body.replace('2500', '2501')).arrayBuffer();
    expect(failure(() => verify(changed, headers, secret, { nowSeconds: NOW }))).toBe('signature_mismatch');
  });

  it('given a header value that is not text (a number in a map of the receiver’s own making), when verified, then it is a missing_header refusal, not a TypeError', () => {
    const { body, headers } = signTestPayload(event, secret, { timestamp: NOW });
    for (const name of Object.keys(headers)) {
      for (const value of [NOW, [NOW], { value: headers[name] }, true]) {
        const odd = { ...headers, [name]: value } as unknown as Record<string, string>;
        expect([name, value, failure(() => verify(body, odd, secret, { nowSeconds: NOW }))]).toEqual([name, value, 'missing_header']);
        const viaGet = { get: (wanted: string) => (wanted === name ? value : headers[wanted]) } as unknown as Headers;
        expect([name, value, failure(() => verify(body, viaGet, secret, { nowSeconds: NOW }))]).toEqual([name, value, 'missing_header']);
      }
    }
    expect(() => verify(body, { ...headers, 'x-service-timestamp': NOW } as unknown as Record<string, string>, secret, { nowSeconds: NOW })).toThrow(/^Header x-service-timestamp is a number, not text/);
  });

  it('given headers that are no Headers of this realm but have a get() (undici’s own, a polyfill’s, an edge runtime’s), when verified, then they are read through get()', () => {
    const { body, headers } = signTestPayload(event, secret, { timestamp: NOW });
    const foreign = { get: (name: string) => new Map(Object.entries(headers)).get(name.toLowerCase()) ?? null };
    expect(foreign).not.toBeInstanceOf(Headers);
    expect(verify(body, foreign, secret, { nowSeconds: NOW }).id).toBe(event.id);
    const asLists = { get: (name: string) => (name in headers ? [headers[name]] : undefined) };
    expect(verify(body, asLists, secret, { nowSeconds: NOW }).id).toBe(event.id);
    expect(failure(() => verify(body, { get: () => null }, secret, { nowSeconds: NOW }))).toBe('missing_header');
  });

  it('refuses a parsed object with a message that says to pass the raw body', () => {
    const { headers } = signTestPayload(event, secret, { timestamp: NOW });
    const run = () => verify(event as unknown as string, headers, secret, { nowSeconds: NOW });
    expect(failure(run)).toBe('not_raw_body');
    expect(run).toThrow(/raw request body.*express\.raw/s);
  });

  it('refuses a body changed by one byte, or re-serialised with other spacing', () => {
    const { body, headers } = signTestPayload(event, secret, { timestamp: NOW });
    expect(failure(() => verify(body.replace('2500', '2501'), headers, secret, { nowSeconds: NOW }))).toBe('signature_mismatch');
    expect(failure(() => verify(JSON.stringify(JSON.parse(body), null, 2), headers, secret, { nowSeconds: NOW }))).toBe('signature_mismatch');
  });

  it('refuses the wrong secret, and no secret at all', () => {
    const { body, headers } = signTestPayload(event, secret, { timestamp: NOW });
    expect(failure(() => verify(body, headers, 'whsec_other', { nowSeconds: NOW }))).toBe('signature_mismatch');
    expect(failure(() => verify(body, headers, [], { nowSeconds: NOW }))).toBe('no_secret');
    expect(failure(() => verify(body, headers, '', { nowSeconds: NOW }))).toBe('no_secret');
  });

  it('refuses a timestamp beyond the tolerance, either side, and accepts one within it', () => {
    const { body, headers } = signTestPayload(event, secret, { timestamp: NOW });
    expect(failure(() => verify(body, headers, secret, { nowSeconds: NOW + 301 }))).toBe('stale_timestamp');
    expect(failure(() => verify(body, headers, secret, { nowSeconds: NOW - 301 }))).toBe('stale_timestamp');
    expect(failure(() => verify(body, headers, secret, { nowSeconds: NOW + 300 }))).toBe('passed');
    expect(failure(() => verify(body, headers, secret, { nowSeconds: NOW + 30, toleranceSeconds: 10 }))).toBe('stale_timestamp');
  });

  it('throws on a tolerance or a clock that is not a number (an unset variable read as NaN would accept replays of any age)', () => {
    const { body, headers } = signTestPayload(event, secret, { timestamp: NOW - 86_400 });
    expect(() => verify(body, headers, secret, { nowSeconds: NOW, toleranceSeconds: Number(undefined) })).toThrow(RangeError);
    expect(() => verify(body, headers, secret, { nowSeconds: NOW, toleranceSeconds: -1 })).toThrow(/finite number ≥ 0, got -1/);
    expect(() => verify(body, headers, secret, { nowSeconds: Number.NaN })).toThrow(/nowSeconds must be a finite number/);
    expect(() => verify(body, headers, secret, { nowSeconds: NOW, toleranceSeconds: Infinity })).toThrow(RangeError);
  });

  it('refuses a replay whose timestamp header was moved forward, since the V2 signature covers it', () => {
    const { body, headers } = signTestPayload(event, secret, { timestamp: NOW - 3600 });
    const moved = { ...headers, 'x-service-timestamp': String(NOW), 'x-service-signature-v2': headers['x-service-signature-v2'].replace(`t=${NOW - 3600}`, `t=${NOW}`) };
    expect(failure(() => verify(body, moved, secret, { nowSeconds: NOW }))).toBe('signature_mismatch');
    expect(failure(() => verify(body, { ...headers, 'x-service-timestamp': String(NOW) }, secret, { nowSeconds: NOW }))).toBe('timestamp_mismatch');
  });

  it('refuses a missing header, a malformed V2 header, and a body whose id is not the signed event id', () => {
    const { body, headers } = signTestPayload(event, secret, { timestamp: NOW });
    for (const name of Object.keys(headers)) {
      const { [name]: _dropped, ...rest } = headers;
      expect([name, failure(() => verify(body, rest, secret, { nowSeconds: NOW }))]).toEqual([name, 'missing_header']);
    }
    expect(failure(() => verify(body, { ...headers, 'x-service-signature-v2': 'garbage' }, secret, { nowSeconds: NOW }))).toBe('missing_header');
    const other = signTestPayload({ ...event, id: 'evt_zzzzzzzzzzzz' }, secret, { timestamp: NOW, eventId: event.id });
    expect(failure(() => verify(other.body, other.headers, secret, { nowSeconds: NOW }))).toBe('event_id_mismatch');
  });

  it('during a rotation, a receiver holding only the old secret, only the new one, or both accepts the delivery', () => {
    const body = Buffer.from(JSON.stringify(event));
    const headers = signatureHeaders(event.id, body, [secret, oldSecret], NOW);
    expect(failure(() => verify(body, headers, oldSecret, { nowSeconds: NOW }))).toBe('passed');
    expect(failure(() => verify(body, headers, secret, { nowSeconds: NOW }))).toBe('passed');
    expect(failure(() => verify(body, headers, [secret, oldSecret], { nowSeconds: NOW }))).toBe('passed');
    expect(failure(() => verify(body, headers, 'whsec_neither', { nowSeconds: NOW }))).toBe('signature_mismatch');
  });

  it('given a V2 header of many v1 values, when verified against two secrets, then each secret’s signature over the body is computed once, not once per value', () => {
    const { body, headers } = signTestPayload(event, secret, { timestamp: NOW });
    const hmac = jest.spyOn(crypto, 'createHmac');
    const eight = `t=${NOW},${Array.from({ length: 8 }, (_, i) => `v1=${String(i).repeat(64)}`).join(',')}`;
    expect(failure(() => verify(body, { ...headers, 'x-service-signature-v2': eight }, ['whsec_a', 'whsec_b'], { nowSeconds: NOW }))).toBe('signature_mismatch');
    expect(hmac).toHaveBeenCalledTimes(2);
  });

  it('given a V2 header with more v1 values than a delivery carries, or longer than one, when verified, then it is refused before any hashing, even holding the valid signature', () => {
    const { body, headers } = signTestPayload(event, secret, { timestamp: NOW });
    const valid = headers['x-service-signature-v2'];
    const hmac = jest.spyOn(crypto, 'createHmac');
    const nine = { ...headers, 'x-service-signature-v2': `${valid}${',v1='.repeat(8)}` };
    expect(failure(() => verify(body, nine, secret, { nowSeconds: NOW }))).toBe('missing_header');
    expect(() => verify(body, nine, secret, { nowSeconds: NOW })).toThrow(/carries 9 v1 signatures/);
    const long = { ...headers, 'x-service-signature-v2': `${valid},${' '.repeat(16_000)}` };
    expect(() => verify(body, long, secret, { nowSeconds: NOW })).toThrow(/16\d{3} characters long/);
    expect(hmac).not.toHaveBeenCalled();
    const eight = { ...headers, 'x-service-signature-v2': `${valid}${',v1='.repeat(7)}` };
    expect(failure(() => verify(body, eight, secret, { nowSeconds: NOW }))).toBe('passed');
  });

  it('outside a rotation, a forged X-Service-Signature fails even when the V2 header verifies', () => {
    const { body, headers } = signTestPayload(event, secret, { timestamp: NOW });
    expect(failure(() => verify(body, { ...headers, 'x-service-signature': '00'.repeat(32) }, secret, { nowSeconds: NOW }))).toBe('signature_mismatch');
    expect(failure(() => verify(body, { ...headers, 'x-service-signature': 'not-hex' }, secret, { nowSeconds: NOW }))).toBe('signature_mismatch');
  });
});
