import { randomUUID } from 'node:crypto';
import { newId, newSessionId } from '@pp/kernel';
import { repositoryDatabase, TestStack, waitFor } from '@pp/testing';
import { Client, type Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { GatewayDatabase } from '../database/gateway.database';
import { DEFAULT_API_KEY_CACHE_TTL_MS as API_KEY_CACHE_TTL_MS } from '../gateway.config';
import { GatewayClient } from '../testing/gateway-client';
import { generateApiKey, hashApiKey, redactKey } from './api-key';
import { API_KEY_REVOKED_CHANNEL } from './api-key-revocation';
import { ApiKeyCache } from './api-key.cache';
import { ApiKeyRepository, type StoredApiKey } from './api-key.repository';
import { MerchantRepository } from './merchant.repository';
import type { Queryable } from './queryable';

/** A TTL no test here outlives: a cached key refused within the test was dropped on its NOTIFY, never by expiry. */
const NOTIFY_ONLY_TTL_MS = 600_000;

/*
 * The gateway keeps keys it found for a few seconds; revocation must still
 * take effect: at once when revoked through this gateway, on the NOTIFY when
 * revoked elsewhere (another replica, the CLI), and within the TTL even when
 * a row is changed by hand with no notification at all. Only the gateway
 * runs, so an accepted key reaches the bus and gets 503; a refused one 401.
 * The notification tests run against a gateway whose TTL outlasts them, so
 * only the NOTIFY can explain a refusal, and only the cache an acceptance of
 * a key revoked unannounced.
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

  it('forgets only the revoked key: another key cached before is still answered from the cache, with no lookup', async () => {
    const [kept, revokedHere, revokedElsewhere] = [await cachedKeyOf(gateway, merchantId), await cachedKeyOf(gateway, merchantId), await cachedKeyOf(gateway, merchantId)];
    // Revoked by hand, unannounced, so a lookup would refuse it: only the cached entry can go on accepting it.
    await db.query('UPDATE gateway.api_keys SET revoked_at = now() WHERE id = $1', [kept.id]);
    await gateway.revokeKey(revokedHere.id);
    expect(await statusAt(gateway, revokedHere.key)).toBe(401);
    await db.query('UPDATE gateway.api_keys SET revoked_at = now() WHERE id = $1', [revokedElsewhere.id]);
    await db.query('SELECT pg_notify($1, $2)', [API_KEY_REVOKED_CHANNEL, revokedElsewhere.id]);
    await waitFor('the notified key to be refused', async () => (await statusAt(gateway, revokedElsewhere.key)) === 401);
    // Notices arrive in commit order: both revocations' are in, and neither emptied the cache.
    expect(await statusAt(gateway, kept.key)).toBe(503);
  });
});

/*
 * The pieces on their own, on real Postgres as the gateway's role: the
 * repository's revocation must always reach the other gateways' listeners,
 * and a cache whose listener reconnects must not keep a key whose revocation
 * it missed while down. Revocations "elsewhere" are plain SQL: one through
 * the repository would also evict the key from this process's caches directly.
 */
describe('API key revocation notices (real Postgres, the gateway role)', () => {
  const LISTENER_NAME = 'keycache-listener';
  let dataSource: DataSource;
  let admin: Pool;
  let close: () => Promise<void>;
  let listenerUrl: string;
  let keys: ApiKeyRepository;
  let merchantId: string;

  beforeAll(async () => {
    const repositories = await repositoryDatabase(GatewayDatabase, 'keyrevoke');
    ({ dataSource, admin, close } = repositories);
    // Named, so the test can cut the cache's listener alone.
    const url = new URL(repositories.database.serviceUrl('gateway'));
    url.searchParams.set('application_name', LISTENER_NAME);
    listenerUrl = url.href;
    keys = new ApiKeyRepository(dataSource);
    merchantId = (await new MerchantRepository(dataSource).insert({ id: newId('merchant'), name: 'Keys', email: 'keys@example.com', etransfer_email: null })).id;
  }, 60_000);
  afterAll(async () => {
    await close?.();
  });

  const issue = async (): Promise<{ id: string; hash: Buffer; cacheId: string }> => {
    const key = generateApiKey({ type: 'secret', livemode: false });
    const hash = hashApiKey(key);
    const { id } = await keys.insert({
      id: newId('key'),
      merchant_id: merchantId,
      type: 'secret',
      livemode: false,
      key_hash: hash,
      redacted: redactKey(key),
      scopes: [],
      rate_limit_per_second: null,
      expires_at: null,
    });
    return { id, hash, cacheId: hash.toString('base64') };
  };

  it('announces a revocation to every listener, answering the revoked key as it was read', async () => {
    const { id } = await issue();
    const before = await keys.findOwned(id, merchantId, false);
    const notices = await listenForRevocations(admin);
    try {
      expect(await keys.revoke(id)).toEqual({ ...before, revoked_at: expect.any(Date) });
      expect(await notices.heard()).toEqual([id]);
    } finally {
      await notices.close();
    }
  });

  it('announces only the first revocation: revoking again answers the key with its first revocation time and sends nothing', async () => {
    const { id } = await issue();
    const notices = await listenForRevocations(admin);
    try {
      const first = await keys.revoke(id);
      const again = await keys.revoke(id);
      expect(again).toEqual(first);
      expect(await notices.heard()).toEqual([id]);
      expect(await keys.revoke('key_never_issued')).toBeUndefined();
    } finally {
      await notices.close();
    }
  });

  it('revokes and announces in one statement: a process that dies after its first statement leaves no key revoked unannounced', async () => {
    const { id } = await issue();
    const notices = await listenForRevocations(admin);
    try {
      await new ApiKeyRepository(diesAfterFirstStatement(dataSource)).revoke(id).catch(() => undefined);
      const [{ revoked_at }] = (await admin.query('SELECT revoked_at FROM gateway.api_keys WHERE id = $1', [id])).rows;
      expect({ revoked: revoked_at !== null, announced: (await notices.heard()).includes(id) }).toEqual({ revoked: true, announced: true });
    } finally {
      await notices.close();
    }
  });

  it('ends a listener that was still connecting when the cache closed (a shutdown during a relisten)', async () => {
    const cache = new ApiKeyCache<StoredApiKey>(listenerUrl, NOTIFY_ONLY_TTL_MS, () => undefined);
    const listening = cache.listen();
    await cache.close();
    await listening;
    const connections = async () => (await admin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [LISTENER_NAME])).rows[0].n as number;
    await waitFor('the listener connection to end', async () => (await connections()) === 0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await connections()).toBe(0);
  });

  it('keeps no key whose revocation was sent while its listener was reconnecting', async () => {
    const troubles: Error[] = [];
    const cache = new ApiKeyCache<StoredApiKey>(listenerUrl, NOTIFY_ONLY_TTL_MS, (error) => troubles.push(error));
    const remember = (key: { cacheId: string }, row: StoredApiKey | undefined, ticket: number) => cache.set(key.cacheId, row!, ticket, Date.now());
    const recall = (key: { cacheId: string }) => cache.get(key.cacheId, Date.now());
    await cache.listen();
    try {
      const held = await issue();
      remember(held, await keys.findByHash(held.hash), cache.ticket());
      expect(recall(held)).toBeDefined();
      const racing = await issue();

      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [LISTENER_NAME]);
      await waitFor('the listener to be lost', () => troubles.length > 0);
      // A lookup begins while nobody listens and reads the row before its revocation...
      const ticket = cache.ticket();
      const read = await keys.findByHash(racing.hash);
      // ...both keys are revoked elsewhere, and the notices go out unheard here...
      await admin.query(
        'WITH revoked AS (UPDATE gateway.api_keys SET revoked_at = now() WHERE id = ANY($1) RETURNING id) SELECT pg_notify($2, id) FROM revoked',
        [[held.id, racing.id], API_KEY_REVOKED_CHANNEL],
      );
      // ...and the lookup ends only once the listener is back (the cache keeps nothing until then).
      await waitFor('the listener to be back', () => {
        remember({ cacheId: 'probe' }, read, cache.ticket());
        return recall({ cacheId: 'probe' }) !== undefined;
      });
      remember(racing, read, ticket);

      expect(recall(racing)).toBeUndefined();
      expect(recall(held)).toBeUndefined();
    } finally {
      await cache.close();
    }
  });
});

/**
 * A connection LISTENing for revocations, as another gateway's cache does. `heard` answers every payload
 * committed before it was called: notices arrive in commit order, so once its own marker is back the rest are in.
 */
async function listenForRevocations(pool: Pool): Promise<{ heard(): Promise<string[]>; close(): Promise<void> }> {
  const client = new Client(pool.options);
  const payloads: string[] = [];
  client.on('notification', ({ payload }) => payloads.push(payload ?? ''));
  await client.connect();
  await client.query(`LISTEN ${API_KEY_REVOKED_CHANNEL}`);
  return {
    heard: async () => {
      const marker = `marker-${randomUUID()}`;
      await client.query('SELECT pg_notify($1, $2)', [API_KEY_REVOKED_CHANNEL, marker]);
      await waitFor('the marker notice', () => payloads.includes(marker));
      return payloads.filter((payload) => !payload.startsWith('marker-'));
    },
    close: () => client.end(),
  };
}

/** The database as a process sees it that dies (or loses its connection) right after its first statement. */
function diesAfterFirstStatement(db: Queryable): Queryable {
  let statements = 0;
  return {
    query<T>(sql: string, parameters?: unknown[]): Promise<T> {
      if (statements++ > 0) return Promise.reject(new Error('the process died'));
      return db.query<T>(sql, parameters);
    },
  };
}

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
