import { newSessionId } from '@pp/kernel';
import { TestStack, waitFor } from '@pp/testing';
import type { Pool } from 'pg';
import { DEFAULT_API_KEY_CACHE_TTL_MS as API_KEY_CACHE_TTL_MS } from '../gateway.config';
import { GatewayClient } from '../testing/gateway-client';
import { API_KEY_REVOKED_CHANNEL } from './api-key-revocation';

/** A TTL no test here outlives: a cached key refused within the test was cleared by the NOTIFY, never by expiry. */
const NOTIFY_ONLY_TTL_MS = 600_000;

/*
 * The gateway keeps keys it found for a few seconds; revocation must still
 * take effect: at once when revoked through this gateway, on the NOTIFY when
 * revoked elsewhere (another replica, the CLI), and within the TTL even when
 * a row is changed by hand with no notification at all. Only the gateway
 * runs, so an accepted key reaches the bus and gets 503; a refused one 401.
 * The notification test runs against a gateway whose TTL outlasts it, so
 * only the NOTIFY can explain the refusal.
 */
describe('API key cache and revocation', () => {
  let stack: TestStack;
  let gateway: GatewayClient;
  let db: Pool;
  let merchantId: string;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway'], label: 'keycache' });
    gateway = new GatewayClient(stack);
    merchantId = (await gateway.createMerchant()).merchant_id;
    db = await stack.sql();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const statusWith = (key: string) => statusAt(gateway, key);
  const cachedKey = () => cachedKeyOf(gateway, merchantId);

  it('refuses a key on the very next request once it is revoked through the gateway', async () => {
    const { id, key } = await cachedKey();
    await gateway.revokeKey(id);
    expect(await statusWith(key)).toBe(401);
  });

  it('refuses a key revoked by hand, with no notification, once the cached entry has lived its TTL', async () => {
    const { id, key } = await cachedKey();
    await db.query('UPDATE gateway.api_keys SET revoked_at = now() WHERE id = $1', [id]);
    await waitFor('the revoked key to be refused', async () => (await statusWith(key)) === 401, { timeoutMs: API_KEY_CACHE_TTL_MS * 4 });
    expect(await statusWith(key)).toBe(401);
  });

  it('records when a key was last used, to the minute, and only for the key that was used', async () => {
    const unused = await gateway.issueKey(merchantId, { type: 'secret', livemode: false });
    const before = Date.now();
    const { id, key: usedKey } = await cachedKey();
    const lastUsed = async (keyId: string) => (await db.query('SELECT last_used_at FROM gateway.api_keys WHERE id = $1', [keyId])).rows[0].last_used_at as Date | null;
    const first = await waitFor('the last use to be recorded', () => lastUsed(id).then((at) => at ?? undefined));
    expect(first.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(await lastUsed(unused.id)).toBeNull();
    // More uses within the minute write nothing: once a later key's first use is recorded, the time is still the first one's.
    for (let i = 0; i < 3; i++) expect(await statusWith(usedKey)).toBe(503);
    const later = await cachedKey();
    await waitFor('the later key’s use to be recorded', () => lastUsed(later.id).then((at) => at ?? undefined));
    expect(await lastUsed(id)).toEqual(first);
  });

  it('still accepts other keys of the merchant after a revocation', async () => {
    const kept = await cachedKey();
    const { id } = await cachedKey();
    await gateway.revokeKey(id);
    expect(await statusWith(kept.key)).toBe(503);
  });
});

describe('API key cache and revocation by notification', () => {
  let stack: TestStack;
  let gateway: GatewayClient;
  let db: Pool;
  let merchantId: string;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway'], label: 'keynotify', env: { API_KEY_CACHE_TTL_MS: String(NOTIFY_ONLY_TTL_MS) } });
    gateway = new GatewayClient(stack);
    merchantId = (await gateway.createMerchant()).merchant_id;
    db = await stack.sql();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('refuses a key revoked by another process as soon as its notification arrives', async () => {
    const { id, key } = await cachedKeyOf(gateway, merchantId);
    // What the CLI or another gateway replica does: the repository's revocation, committed elsewhere.
    await db.query('UPDATE gateway.api_keys SET revoked_at = now() WHERE id = $1', [id]);
    await db.query('SELECT pg_notify($1, $2)', [API_KEY_REVOKED_CHANNEL, id]);
    await waitFor('the revoked key to be refused', async () => (await statusAt(gateway, key)) === 401);
  });
});

/** The status a key gets from the gateway: 503 when accepted (no sessions service runs), 401 when refused. */
async function statusAt(gateway: GatewayClient, key: string): Promise<number> {
  return (await gateway.call(`/v1/checkout/sessions/${newSessionId()}`, { method: 'GET', token: key })).status;
}

/** A fresh key, used a few times so the gateway holds it. */
async function cachedKeyOf(gateway: GatewayClient, merchantId: string): Promise<{ id: string; key: string }> {
  const issued = await gateway.issueKey(merchantId, { type: 'secret', livemode: false });
  for (let i = 0; i < 3; i++) expect(await statusAt(gateway, issued.key)).toBe(503);
  return issued;
}
