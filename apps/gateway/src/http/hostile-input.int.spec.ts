import { TestStack } from '@pp/testing';
import fc from 'fast-check';
import type { ProvisionedMerchantView } from '../identity/identity.views';
import { GatewayClient } from '../testing/gateway-client';

/*
 * Generated bad bodies and headers against authenticated routes: every answer
 * is a 4xx (or the 503 of a checkout request that was valid enough to reach
 * the absent sessions service) with exactly `{ "error": string }`, never a 500.
 */

const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', '\udfff x', '😀', '\u202e', '%00', '../../etc/passwd', "'; DROP TABLE x;--", '__proto__', 'constructor'),
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, -1, 0, 1e308, -0),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 5 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 5 }),
);

const hugeString = fc.integer({ min: 256, max: 200_000 }).map((n) => 'x'.repeat(n));

const deepNesting = fc.integer({ min: 20, max: 5000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);

const pollution = fc.constantFrom(
  '{"__proto__":{"admin":true},"name":"x","email":"a@b.co"}',
  '{"constructor":{"prototype":{"admin":true}},"name":"x","email":"a@b.co"}',
  '{"name":"x","email":"a@b.co","metadata":{"__proto__":{"polluted":1}}}',
  '{"amount":1,"currency":"cad","reference":"r","success_url":"https://a.b","cancel_url":"https://a.b","metadata":{"constructor":{"prototype":{"x":1}}}}',
);

const malformedJson = fc.oneof(
  fc.constantFrom('', '{', '{"a":}', "{'a':1}", 'nul', '[1,2', '{"a":1}}', '\u0000', '\ufeff{}', 'NaN', '{"a":1,}'),
  fc.string().filter((text) => {
    try {
      JSON.parse(text);
      return false;
    } catch {
      return true;
    }
  }),
);

const nonObjectJson = fc.constantFrom('[]', '[1]', '"text"', '42', 'true', 'null');

/** A body for one of the POST routes: wrong types and unknown keys around the expected fields. */
const badFields = fc
  .record(
    {
      name: nasty,
      email: nasty,
      password: nasty,
      amount: nasty,
      currency: nasty,
      reference: fc.oneof(nasty, hugeString),
      success_url: nasty,
      cancel_url: nasty,
      metadata: nasty,
      type: nasty,
      livemode: nasty,
      scopes: nasty,
      extra: nasty,
    },
    { requiredKeys: [] },
  )
  .map((body) => JSON.stringify(body));

const body = fc.oneof(badFields, badFields, malformedJson, nonObjectJson, deepNesting, pollution, hugeString.map((s) => JSON.stringify({ name: s, email: s })));

const route = fc.constantFrom('merchants', 'keys', 'sessions');

const headerValue = fc.oneof(
  fc.string({ maxLength: 300 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
  fc.constantFrom('', ' ', 'Bearer', 'Bearer ', 'Bearer pp_live_', 'Bearer pp_live_test_', 'Bearer pp_pub_x', 'Bearer ' + 'A'.repeat(5000)),
);

const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  '',
);

describe('hostile input', () => {
  let stack: TestStack;
  let gateway: GatewayClient;
  let merchant: ProvisionedMerchantView;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway'], label: 'hostile', env: { RATE_LIMIT_LIVE_PER_SECOND: '100000' } });
    gateway = new GatewayClient(stack);
    merchant = await gateway.createMerchant();
  });
  afterAll(() => stack?.stop());

  const target = (which: 'merchants' | 'keys' | 'sessions') =>
    which === 'merchants'
      ? { path: '/v1/admin/merchants', token: gateway.adminToken }
      : which === 'keys'
        ? { path: `/v1/admin/merchants/${merchant.merchant_id}/keys`, token: gateway.adminToken }
        : { path: '/v1/checkout/sessions', token: merchant.keys.live_secret };

  const expectErrorShape = (result: { status: number; text: string; body: unknown }) => {
    const acceptable = (result.status >= 400 && result.status < 500) || result.status === 503;
    if (!acceptable) throw new Error(`status ${result.status}: ${result.text.slice(0, 300)}`);
    expect(result.body).toEqual({ error: expect.any(String) });
    expect(Object.keys(result.body as object)).toEqual(['error']);
  };

  it('answers 200 generated bad bodies with 4xx and { error }', async () => {
    await fc.assert(
      fc.asyncProperty(route, body, async (which, text) => {
        const { path, token } = target(which);
        const result = await gateway.call(path, { token, body: text });
        expectErrorShape(result);
        if (which !== 'sessions') expect(result.status).not.toBe(503);
      }),
      { numRuns: 200 },
    );
  });

  it('answers 100 generated bad headers with 4xx and { error }', async () => {
    await fc.assert(
      fc.asyncProperty(route, headerValue, headerValue, contentType, async (which, authorization, idempotencyKey, type) => {
        const { path } = target(which);
        const result = await gateway.call(path, {
          body: '{"name":"x"}',
          idempotencyKey: null,
          headers: { authorization, 'idempotency-key': idempotencyKey, 'content-type': type, 'x-request-id': idempotencyKey },
        });
        expectErrorShape(result);
        expect(result.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/);
      }),
      { numRuns: 100 },
    );
  });

  it('answers a body over 1 MB with 413 and one that is not JSON with 415', async () => {
    const big = await gateway.call('/v1/admin/merchants', {
      token: gateway.adminToken,
      body: JSON.stringify({ name: 'x'.repeat(1_100_000), email: 'a@b.co' }),
    });
    expect(big).toMatchObject({ status: 413, body: { error: 'Request body too large (limit 1 MB)' } });
    const form = await gateway.call('/v1/admin/merchants', {
      token: gateway.adminToken,
      body: 'name=x&email=a@b.co',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form).toMatchObject({ status: 415, body: { error: 'Unsupported Content-Type: send application/json' } });
  });

  it('names the problem in exact messages', async () => {
    const cases: Array<[string, string]> = [
      ['{', 'Validation failed: body is not valid JSON'],
      ['[]', 'Validation failed: body must be a JSON object'],
      ['{"__proto__":{"x":1}}', 'Validation failed: body must not contain the key __proto__, a name objects reserve'],
      // Nest's pipe and class-transformer would drop these keys silently, not refuse them as unknown.
      ['{"name":"x","email":"a@b.co","toString":"x"}', 'Validation failed: body must not contain the key toString, a name objects reserve'],
      ['{"name":"x","email":"a@b.co","constructor":"x"}', 'Validation failed: body must not contain the key constructor, a name objects reserve'],
      ['{"name":"a\\u0000b","email":"a@b.co"}', 'Validation failed: body.name must not contain NUL characters'],
      [`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`, 'Validation failed: body must not nest deeper than 32 levels'],
      ['{"email":"a@b.co"}', 'Validation failed: name is required'],
      ['{"name":"x","email":"nope"}', 'Validation failed: email must be an e-mail address'],
      ['{"name":"x","email":"a@b.co","admin":true}', 'Validation failed: property admin should not exist'],
    ];
    for (const [text, error] of cases) {
      const result = await gateway.call('/v1/admin/merchants', { token: gateway.adminToken, body: text });
      expect({ text, status: result.status, body: result.body }).toEqual({ text, status: 400, body: { error } });
    }
  });

  it('answers unknown routes 404 and keeps a well-formed caller request id', async () => {
    const result = await gateway.call('/v1/nowhere', { headers: { 'x-request-id': 'caller-id-123' } });
    expect(result).toMatchObject({ status: 404, body: { error: 'Not found' } });
    expect(result.headers.get('x-request-id')).toBe('caller-id-123');
  });

  it('answers a body sent to an unknown route, or with a method its route does not take, 404 or 405 without reading it: no caller spends the parser unauthenticated', async () => {
    const unknown = await gateway.call('/v1/nowhere', { body: '{bad' });
    expect(unknown).toMatchObject({ status: 404, body: { error: 'Not found' } });
    const wrongMethod = await gateway.call('/v1/payments', { body: '{bad' });
    expect(wrongMethod).toMatchObject({ status: 405, body: { error: expect.any(String) } });
    expect(wrongMethod.headers.get('allow')).toContain('GET');
  });
});
