import { randomUUID } from 'node:crypto';
import { TestStack } from '@pp/testing';
import { Client } from 'pg';
import type { ApiKeyView, ProvisionedMerchantView } from '../identity/identity.views';
import { GatewayClient, type CallOptions } from '../testing/gateway-client';
import { PUBLISHABLE_KEY_REFUSED } from './route-access';

/*
 * PRODUCT-RULES §5 and §7 as a table: every credential against every route family.
 * Only the gateway runs, so a request that passes the access checks of a
 * checkout route reaches the bus and gets 503 (no sessions service); admin
 * routes answer for themselves. To cover a new route family, add a row to
 * ROUTES; to cover a new kind of credential, add one to CREDENTIALS.
 */

type Credential =
  | 'live_secret'
  | 'test_secret'
  | 'live_publishable'
  | 'test_publishable'
  | 'restricted_with_scope'
  | 'restricted_without_scope'
  | 'revoked'
  | 'expired'
  | 'unknown'
  | 'garbage'
  | 'missing'
  | 'admin_token';

type Expected = { status: number; error?: string };

interface RouteRow {
  name: string;
  /** Who may call it: the admin token, or API keys holding `scope`. */
  access: { admin: true } | { scope: string };
  request: (merchant: ProvisionedMerchantView) => { path: string } & CallOptions;
  /** The answer once access is granted. */
  granted: Expected;
  /** Credentials this route answers differently (e.g. a route for test keys only, or a restricted key that does hold its scope). */
  grantedFor?: Partial<Record<Credential, Expected>>;
}

const INVALID_KEY = 'Invalid or missing API key';
const INVALID_ADMIN = 'Invalid or missing admin token';
const UNAVAILABLE: Expected = { status: 503, error: 'Service unavailable' };

const sessionBody = () => ({
  amount: 1250,
  currency: 'cad',
  reference: `order-${randomUUID()}`,
  success_url: 'https://shop.example/success',
  cancel_url: 'https://shop.example/cancel',
});

const ROUTES: RouteRow[] = [
  {
    name: 'POST /v1/admin/merchants',
    access: { admin: true },
    request: () => ({ path: '/v1/admin/merchants', body: { name: 'Row Merchant', email: `${randomUUID()}@example.com` } }),
    granted: { status: 201 },
  },
  {
    name: 'POST /v1/admin/merchants/:id/keys',
    access: { admin: true },
    request: (m) => ({ path: `/v1/admin/merchants/${m.merchant_id}/keys`, body: { type: 'secret', livemode: false } }),
    granted: { status: 201 },
  },
  {
    name: 'GET /v1/admin/merchants/:id',
    access: { admin: true },
    request: (m) => ({ path: `/v1/admin/merchants/${m.merchant_id}` }),
    granted: { status: 200 },
  },
  {
    name: 'PATCH /v1/admin/merchants/:id',
    access: { admin: true },
    request: (m) => ({ path: `/v1/admin/merchants/${m.merchant_id}`, method: 'PATCH', body: { etransfer_email: 'pay@shop.example' } }),
    granted: { status: 200 },
  },
  // Platform admins' review routes answer from ingest and the ledger, which do not run here.
  { name: 'GET /v1/admin/ingest/quarantine', access: { admin: true }, request: () => ({ path: '/v1/admin/ingest/quarantine' }), granted: UNAVAILABLE },
  {
    name: 'POST /v1/admin/ingest/quarantine/:id/retry',
    access: { admin: true },
    request: () => ({ path: '/v1/admin/ingest/quarantine/em_x0000000000000000000000/retry', method: 'POST' }),
    granted: UNAVAILABLE,
  },
  { name: 'GET /v1/admin/payments', access: { admin: true }, request: () => ({ path: '/v1/admin/payments?status=REQUIRES_MANUAL_REVIEW' }), granted: UNAVAILABLE },
  {
    name: 'POST /v1/checkout/sessions',
    access: { scope: 'checkout.write' },
    request: () => ({ path: '/v1/checkout/sessions', body: sessionBody() }),
    granted: UNAVAILABLE,
  },
  {
    name: 'GET /v1/checkout/sessions/:id',
    access: { scope: 'checkout.write' },
    request: () => ({ path: '/v1/checkout/sessions/clx0000000000000000000000' }),
    granted: UNAVAILABLE,
  },
  {
    name: 'GET /v1/payments',
    access: { scope: 'payments.read' },
    request: () => ({ path: '/v1/payments?limit=5' }),
    granted: UNAVAILABLE,
    // The restricted keys of this table hold checkout.write, and payments.read + events.read, respectively.
    grantedFor: { restricted_with_scope: { status: 403, error: 'Insufficient scope: payments.read required' }, restricted_without_scope: UNAVAILABLE },
  },
  {
    name: 'GET /v1/events',
    access: { scope: 'events.read' },
    request: () => ({ path: '/v1/events' }),
    granted: UNAVAILABLE,
    grantedFor: { restricted_with_scope: { status: 403, error: 'Insufficient scope: events.read required' }, restricted_without_scope: UNAVAILABLE },
  },
  {
    name: 'GET /v1/events/stream',
    access: { scope: 'events.read' },
    request: () => ({ path: '/v1/events/stream' }),
    granted: UNAVAILABLE,
    grantedFor: { restricted_with_scope: { status: 403, error: 'Insufficient scope: events.read required' }, restricted_without_scope: UNAVAILABLE },
  },
  {
    name: 'GET /v1/events/:id',
    access: { scope: 'events.read' },
    request: () => ({ path: '/v1/events/evt_x0000000000000000000000' }),
    granted: UNAVAILABLE,
    grantedFor: { restricted_with_scope: { status: 403, error: 'Insufficient scope: events.read required' }, restricted_without_scope: UNAVAILABLE },
  },
  {
    name: 'POST /v1/sandbox/simulate-payment',
    access: { scope: 'checkout.write' },
    request: () => ({ path: '/v1/sandbox/simulate-payment', body: { sessionId: 'clx0000000000000000000000', outcome: 'confirmed' } }),
    granted: UNAVAILABLE,
    // Test secret keys only: live secret and restricted (always live) keys are refused before the bus.
    grantedFor: {
      live_secret: { status: 403, error: 'Simulate payment requires a test key' },
      restricted_with_scope: { status: 403, error: 'Simulate payment requires a test key' },
    },
  },
  {
    name: 'POST /v1/sandbox/expire-session',
    access: { scope: 'checkout.write' },
    request: () => ({ path: '/v1/sandbox/expire-session', body: { sessionId: 'clx0000000000000000000000' } }),
    granted: UNAVAILABLE,
    grantedFor: {
      live_secret: { status: 403, error: 'Expiring a session early requires a test key' },
      restricted_with_scope: { status: 403, error: 'Expiring a session early requires a test key' },
    },
  },
  {
    name: 'POST /v1/refunds',
    access: { scope: 'refunds.write' },
    request: () => ({ path: '/v1/refunds', body: { payment_id: 'txn_x0000000000000000000000' } }),
    granted: UNAVAILABLE,
    grantedFor: { restricted_with_scope: { status: 403, error: 'Insufficient scope: refunds.write required' } },
  },
  {
    name: 'GET /v1/refunds',
    access: { scope: 'payments.read' },
    request: () => ({ path: '/v1/refunds?limit=5' }),
    granted: UNAVAILABLE,
    grantedFor: { restricted_with_scope: { status: 403, error: 'Insufficient scope: payments.read required' }, restricted_without_scope: UNAVAILABLE },
  },
  {
    name: 'GET /v1/refunds/:id',
    access: { scope: 'payments.read' },
    request: () => ({ path: '/v1/refunds/rf_x0000000000000000000000' }),
    granted: UNAVAILABLE,
    grantedFor: { restricted_with_scope: { status: 403, error: 'Insufficient scope: payments.read required' }, restricted_without_scope: UNAVAILABLE },
  },
  {
    name: 'POST /v1/refunds/:id/cancel',
    access: { scope: 'refunds.write' },
    request: () => ({ path: '/v1/refunds/rf_x0000000000000000000000/cancel', method: 'POST' }),
    granted: UNAVAILABLE,
    grantedFor: { restricted_with_scope: { status: 403, error: 'Insufficient scope: refunds.write required' } },
  },
  {
    name: 'GET /v1/admin/refunds',
    access: { admin: true },
    request: () => ({ path: '/v1/admin/refunds?status=REQUESTED' }),
    granted: UNAVAILABLE,
  },
  {
    name: 'POST /v1/admin/refunds/:id/complete',
    access: { admin: true },
    request: () => ({ path: '/v1/admin/refunds/rf_x0000000000000000000000/complete', body: { outbound_reference: 'CA1', evidence_note: 'seen' } }),
    granted: UNAVAILABLE,
  },
  ...(['approve', 'mark-sent'] as const).map(
    (action): RouteRow => ({
      name: `POST /v1/admin/refunds/:id/${action}`,
      access: { admin: true },
      request: () => ({ path: `/v1/admin/refunds/rf_x0000000000000000000000/${action}`, method: 'POST' }),
      granted: UNAVAILABLE,
    }),
  ),
  ...([['reject', { rejection_reason: 'no' }], ['fail', { failure_reason: 'bounced' }]] as const).map(
    ([action, body]): RouteRow => ({
      name: `POST /v1/admin/refunds/:id/${action}`,
      access: { admin: true },
      request: () => ({ path: `/v1/admin/refunds/rf_x0000000000000000000000/${action}`, body }),
      granted: UNAVAILABLE,
    }),
  ),
  { name: 'GET /v1/admin/refunds/:id', access: { admin: true }, request: () => ({ path: '/v1/admin/refunds/rf_x0000000000000000000000' }), granted: UNAVAILABLE },
  {
    // The client-side route: publishable keys are its audience (secret keys may call it too).
    name: 'GET /v1/client/checkout_session',
    access: { scope: 'checkout.write' },
    request: () => ({ path: '/v1/client/checkout_session', headers: { 'x-client-secret': `clx0000000000000000000000_secret_${'a'.repeat(33)}` } }),
    granted: UNAVAILABLE,
    grantedFor: { live_publishable: UNAVAILABLE, test_publishable: UNAVAILABLE },
  },
  ...(['GET /v1/webhook_endpoints', 'POST /v1/webhook_endpoints'] as const).map(
    (name): RouteRow => ({
      name,
      access: { scope: 'webhooks.write' },
      request: () => (name.startsWith('GET') ? { path: '/v1/webhook_endpoints' } : { path: '/v1/webhook_endpoints', body: { url: 'https://shop.example/hooks' } }),
      granted: UNAVAILABLE,
      // Neither restricted key of this table holds webhooks.write.
      grantedFor: { restricted_with_scope: { status: 403, error: 'Insufficient scope: webhooks.write required' } },
    }),
  ),
];

const CREDENTIALS: Credential[] = [
  'live_secret',
  'test_secret',
  'live_publishable',
  'test_publishable',
  'restricted_with_scope',
  'restricted_without_scope',
  'revoked',
  'expired',
  'unknown',
  'garbage',
  'missing',
  'admin_token',
];

/** The rules of PRODUCT-RULES §5 (key types, scopes) and §7 (401 and 403 messages). */
function expectedFor(route: RouteRow, credential: Credential): Expected {
  if ('admin' in route.access) return credential === 'admin_token' ? route.granted : { status: 401, error: INVALID_ADMIN };
  const special = route.grantedFor?.[credential];
  if (special) return special;
  switch (credential) {
    case 'live_secret':
    case 'test_secret':
    case 'restricted_with_scope':
      return route.granted;
    case 'live_publishable':
    case 'test_publishable':
      return { status: 403, error: PUBLISHABLE_KEY_REFUSED };
    case 'restricted_without_scope':
      return { status: 403, error: `Insufficient scope: ${route.access.scope} required` };
    default:
      return { status: 401, error: INVALID_KEY };
  }
}

describe('access rules (PRODUCT-RULES §5, §7) for every credential and route family', () => {
  let stack: TestStack;
  let gateway: GatewayClient;
  let merchant: ProvisionedMerchantView;
  const tokens = {} as Record<Credential, string | undefined>;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway'], label: 'access' });
    gateway = new GatewayClient(stack);
    merchant = await gateway.createMerchant();
    const withScope = await gateway.issueKey(merchant.merchant_id, { type: 'restricted', livemode: true, scopes: ['checkout.write'] });
    const withoutScope = await gateway.issueKey(merchant.merchant_id, {
      type: 'restricted',
      livemode: true,
      scopes: ['payments.read', 'events.read'],
    });
    const revoked = await gateway.issueKey(merchant.merchant_id, { type: 'secret', livemode: true });
    await gateway.revokeKey(revoked.id);
    const expired = await gateway.issueKey(merchant.merchant_id, { type: 'secret', livemode: false, expires_at: new Date(Date.now() + 3_600_000).toISOString() });
    // Let it lapse without waiting: move its expiry into the past.
    const db = new Client({ connectionString: stack.database.url });
    await db.connect();
    await db.query(`UPDATE gateway.api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [expired.id]);
    await db.end();
    Object.assign(tokens, {
      live_secret: merchant.keys.live_secret,
      test_secret: merchant.keys.test_secret,
      live_publishable: merchant.keys.live_publishable,
      test_publishable: merchant.keys.test_publishable,
      restricted_with_scope: withScope.key,
      restricted_without_scope: withoutScope.key,
      revoked: revoked.key,
      expired: expired.key,
      unknown: `pp_live_${'A'.repeat(33)}`,
      garbage: 'not-a-key',
      missing: undefined,
      admin_token: gateway.adminToken,
    });
  });
  afterAll(() => stack?.stop());

  const rows = ROUTES.flatMap((route) => CREDENTIALS.map((credential) => [route.name, credential, route] as const));

  it.each(rows)('%s with %s', async (_name, credential, route) => {
    const { path, ...options } = route.request(merchant);
    const expected = expectedFor(route, credential);
    const result = await gateway.call(path, { ...options, token: tokens[credential] });
    expect({ status: result.status, body: result.body }).toEqual({
      status: expected.status,
      body: expected.error === undefined ? expect.anything() : { error: expected.error },
    });
    expect(result.headers.get('x-request-id')).toMatch(/\S/);
  });

  it.each([
    ['live', 'live_secret', '100'],
    ['test', 'test_secret', '25'],
  ] as const)('counts a %s key against its mode’s default rate limit', async (_mode, credential, limit) => {
    const result = await gateway.call('/v1/checkout/sessions/clx0000000000000000000000', { token: tokens[credential] });
    expect(result.headers.get('x-ratelimit-limit')).toBe(limit);
  });

  it.each([
    ['a lowercase bearer scheme', (key: string) => `bearer ${key}`, 503],
    ['a Basic scheme', (key: string) => `Basic ${key}`, 401],
    ['no scheme', (key: string) => key, 401],
    ['a live key with the test prefix spliced in', (key: string) => `Bearer ${key.replace('pp_live_', 'pp_live_test_')}`, 401],
  ] as const)('reads the Authorization header strictly: %s', async (_name, header, status) => {
    const result = await gateway.call('/v1/checkout/sessions/clx0000000000000000000000', {
      headers: { authorization: header(merchant.keys.live_secret) },
    });
    expect(result.status).toBe(status);
  });

  it('refuses restricted keys in test mode and scopes on secret keys', async () => {
    for (const body of [
      { type: 'restricted', livemode: false, scopes: ['checkout.write'] },
      { type: 'restricted', livemode: true },
      { type: 'secret', livemode: true, scopes: ['checkout.write'] },
      { type: 'restricted', livemode: true, scopes: ['payments.write'] },
    ]) {
      const result = await gateway.call<{ error: string }>(`/v1/admin/merchants/${merchant.merchant_id}/keys`, { token: gateway.adminToken, body });
      expect(result.status).toBe(400);
      expect(result.body.error).toMatch(/^Validation failed: (scopes|livemode)/);
    }
  });

  it('issues keys whose prefix says their type and mode', async () => {
    expect(merchant.keys.live_secret).toMatch(/^pp_live_[0-9A-Za-z]{33}$/);
    expect(merchant.keys.test_secret).toMatch(/^pp_live_test_[0-9A-Za-z]{33}$/);
    expect(merchant.keys.live_publishable).toMatch(/^pp_pub_[0-9A-Za-z]{33}$/);
    expect(merchant.keys.test_publishable).toMatch(/^pp_pub_test_[0-9A-Za-z]{33}$/);
    expect(tokens.restricted_with_scope).toMatch(/^pp_rk_[0-9A-Za-z]{33}$/);
    const listed = await gateway.call<{ keys: ApiKeyView[] }>(`/v1/admin/merchants/${merchant.merchant_id}`, { token: gateway.adminToken });
    expect(listed.text).not.toContain(merchant.keys.live_secret);
    expect(listed.body.keys.find((k: { type: string; livemode: boolean }) => k.type === 'secret' && k.livemode)).toMatchObject({
      scopes: ['checkout.write', 'payments.read', 'events.read', 'webhooks.write', 'refunds.write'],
    });
  });
});
