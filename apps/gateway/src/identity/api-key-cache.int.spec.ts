import { newSessionId } from '@pp/kernel';
import { TestStack, waitFor } from '@pp/testing';
import { Client } from 'pg';
import { GatewayClient } from '../testing/gateway-client';
import { API_KEY_CACHE_TTL_MS, API_KEY_REVOKED_CHANNEL } from './api-key.cache';

/*
 * The gateway keeps keys it found for a few seconds; revocation must still
 * take effect: at once when revoked through this gateway, on the NOTIFY when
 * revoked elsewhere (another replica, the CLI), and within the TTL even when
 * a row is changed by hand with no notification at all. Only the gateway
 * runs, so an accepted key reaches the bus and gets 503; a refused one 401.
 */
describe('API key cache and revocation', () => {
  let stack: TestStack;
  let gateway: GatewayClient;
  let db: Client;
  let merchantId: string;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway'], label: 'keycache' });
    gateway = new GatewayClient(stack);
    merchantId = (await gateway.createMerchant()).merchant_id;
    db = new Client({ connectionString: stack.database.url });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await stack?.stop();
  });

  const statusWith = async (key: string) => (await gateway.call(`/v1/checkout/sessions/${newSessionId()}`, { method: 'GET', token: key })).status;

  /** A fresh key, used a few times so the gateway holds it. */
  async function cachedKey(): Promise<{ id: string; key: string }> {
    const issued = await gateway.issueKey(merchantId, { type: 'secret', livemode: false });
    for (let i = 0; i < 3; i++) expect(await statusWith(issued.key)).toBe(503);
    return issued;
  }

  it('refuses a key on the very next request once it is revoked through the gateway', async () => {
    const { id, key } = await cachedKey();
    await gateway.revokeKey(id);
    expect(await statusWith(key)).toBe(401);
  });

  it('refuses a key revoked by another process as soon as its notification arrives', async () => {
    const { id, key } = await cachedKey();
    // What the CLI or another gateway replica does: the repository's revocation, committed elsewhere.
    await db.query('UPDATE gateway.api_keys SET revoked_at = now() WHERE id = $1', [id]);
    await db.query('SELECT pg_notify($1, $2)', [API_KEY_REVOKED_CHANNEL, id]);
    await waitFor('the revoked key to be refused', async () => (await statusWith(key)) === 401, { timeoutMs: API_KEY_CACHE_TTL_MS * 4 });
  });

  it('refuses a key revoked by hand, with no notification, once the cached entry has lived its TTL', async () => {
    const { id, key } = await cachedKey();
    await db.query('UPDATE gateway.api_keys SET revoked_at = now() WHERE id = $1', [id]);
    await waitFor('the revoked key to be refused', async () => (await statusWith(key)) === 401, { timeoutMs: API_KEY_CACHE_TTL_MS * 4 });
    expect(await statusWith(key)).toBe(401);
  });

  it('still accepts other keys of the merchant after a revocation', async () => {
    const kept = await cachedKey();
    const { id } = await cachedKey();
    await gateway.revokeKey(id);
    expect(await statusWith(kept.key)).toBe(503);
  });
});
