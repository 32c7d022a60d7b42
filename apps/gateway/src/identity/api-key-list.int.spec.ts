import { newId } from '@pp/kernel';
import { repositoryDatabase } from '@pp/testing';
import type { Pool } from 'pg';
import { GatewayDatabase } from '../database/gateway.database';
import { generateApiKey, hashApiKey, redactKey } from './api-key';
import { ApiKeyRepository, RETIRED_KEYS_SHOWN } from './api-key.repository';
import { MerchantRepository } from './merchant.repository';

/*
 * Revoked keys are kept for good, so a merchant who makes and revokes keys
 * (a script, a leaked session) would grow the list past what one bus answer
 * carries: the list shows every usable key and only the newest retired ones.
 */
describe('the keys a merchant is shown (real Postgres, the gateway role)', () => {
  let admin: Pool;
  let close: () => Promise<void>;
  let keys: ApiKeyRepository;
  let merchantId: string;

  beforeAll(async () => {
    let dataSource;
    ({ dataSource, admin, close } = await repositoryDatabase(GatewayDatabase, 'keylist'));
    keys = new ApiKeyRepository(dataSource);
    merchantId = (await new MerchantRepository(dataSource).insert({ id: newId('merchant'), name: 'Keys', email: 'keys@example.com', etransfer_email: null })).id;
  }, 60_000);
  afterAll(async () => {
    await close?.();
  });

  /** A test secret key made `minutesAgo`, revoked or expired as told. */
  const made = async (minutesAgo: number, state: 'usable' | 'revoked' | 'expired', livemode = false): Promise<string> => {
    const key = generateApiKey({ type: 'secret', livemode });
    const { id } = await keys.insert({
      id: newId('key'),
      merchant_id: merchantId,
      type: 'secret',
      livemode,
      key_hash: hashApiKey(key),
      redacted: redactKey(key),
      scopes: [],
      rate_limit_per_second: null,
      expires_at: state === 'expired' ? new Date(Date.now() - 1000) : null,
    });
    await admin.query(`UPDATE gateway.api_keys SET created_at = now() - $2 * interval '1 minute', revoked_at = CASE WHEN $3 THEN now() END WHERE id = $1`, [
      id,
      minutesAgo,
      state === 'revoked',
    ]);
    return id;
  };

  it('given an old usable key, many revoked and expired ones after it, and a live key, when the test keys are listed: the usable one and the newest retired ones, newest first, of that mode only', async () => {
    const oldest = await made(10_000, 'usable');
    const retired: string[] = [];
    for (let i = 0; i < RETIRED_KEYS_SHOWN + 10; i++) retired.push(await made(5_000 - i, i % 5 === 0 ? 'expired' : 'revoked'));
    const newest = await made(1, 'usable');
    await made(2, 'usable', true);

    const shown = (await keys.listShown(merchantId, false)).map((key) => key.id);
    expect(shown).toEqual([newest, ...retired.slice(-RETIRED_KEYS_SHOWN).reverse(), oldest]);
  });

  it('given retired keys in both modes, when both modes are listed (the operator’s view of a merchant): each mode keeps its newest retired ones', async () => {
    const liveRetired = await made(3, 'revoked', true);
    const both = await keys.listShown(merchantId);
    expect(both.filter((key) => key.livemode && key.revoked_at !== null).map((key) => key.id)).toEqual([liveRetired]);
    expect(both.filter((key) => !key.livemode && (key.revoked_at !== null || key.expires_at !== null))).toHaveLength(RETIRED_KEYS_SHOWN);
  });
});
