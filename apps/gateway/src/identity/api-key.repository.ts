import type { KeyType } from './api-key';
import { API_KEY_REVOKED_CHANNEL, evictFromApiKeyCaches } from './api-key-revocation';
import type { Queryable } from './queryable';
import { returning } from './queryable';
import type { Scope } from './scopes';

export interface ApiKeyRecord {
  id: string;
  merchant_id: string;
  type: KeyType;
  livemode: boolean;
  /** Prefix and last four characters, for listings. */
  redacted: string;
  scopes: Scope[];
  /** Requests per second; null means the mode's default. */
  rate_limit_per_second: number | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
  /** To the minute (ApiKeyUsage); null until the key authenticates a request. */
  last_used_at: Date | null;
}

/** A key row as authentication reads it, hash included. */
export type StoredApiKey = ApiKeyRecord & { key_hash: Buffer };

export type NewApiKey = Omit<ApiKeyRecord, 'revoked_at' | 'created_at' | 'last_used_at'> & { key_hash: Buffer };

/** How many revoked or expired keys a merchant's key list shows, newest first (listShown). */
export const RETIRED_KEYS_SHOWN = 50;

export class ApiKeyRepository {
  constructor(private readonly db: Queryable) {}

  async insert(key: NewApiKey): Promise<ApiKeyRecord> {
    const [row] = await this.db.query<ApiKeyRecord[]>(
      `INSERT INTO gateway.api_keys (id, merchant_id, type, livemode, key_hash, redacted, scopes, rate_limit_per_second, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       RETURNING ${COLUMNS}`,
      [key.id, key.merchant_id, key.type, key.livemode, key.key_hash, key.redacted, key.scopes, key.rate_limit_per_second, key.expires_at],
    );
    return row;
  }

  /** One index lookup by hash; the caller still compares the hash in constant time. */
  async findByHash(hash: Buffer): Promise<StoredApiKey | undefined> {
    const [row] = await this.db.query<StoredApiKey[]>(`SELECT ${COLUMNS}, key_hash FROM gateway.api_keys WHERE key_hash = $1`, [hash]);
    return row;
  }

  /** A key of this merchant and mode, else undefined (another merchant's key is simply not found). */
  async findOwned(id: string, merchantId: string, livemode: boolean): Promise<ApiKeyRecord | undefined> {
    const [row] = await this.db.query<ApiKeyRecord[]>(`SELECT ${COLUMNS} FROM gateway.api_keys WHERE id = $1 AND merchant_id = $2 AND livemode = $3`, [
      id,
      merchantId,
      livemode,
    ]);
    return row;
  }

  /** Keys of the merchant and mode that still authenticate (neither revoked nor expired). */
  async countActive(merchantId: string, livemode: boolean): Promise<number> {
    const [{ count }] = await this.db.query<Array<{ count: number }>>(
      `SELECT count(*)::int AS count FROM gateway.api_keys
        WHERE merchant_id = $1 AND livemode = $2 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
      [merchantId, livemode],
    );
    return count;
  }

  /**
   * The keys a merchant is shown (of one mode, or both), newest first: every
   * usable key (at most MAX_ACTIVE_KEYS_PER_MODE a mode) and, of each mode,
   * the newest RETIRED_KEYS_SHOWN revoked or expired ones. Revoked keys are
   * kept for good, and a list of all of them would grow with every key made
   * and revoked until no bus answer could carry it.
   */
  async listShown(merchantId: string, livemode?: boolean): Promise<ApiKeyRecord[]> {
    return this.db.query<ApiKeyRecord[]>(
      `SELECT ${COLUMNS} FROM (
         SELECT *, row_number() OVER (PARTITION BY livemode, usable ORDER BY created_at DESC, id DESC) AS nth
           FROM (SELECT *, revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now()) AS usable
                   FROM gateway.api_keys WHERE merchant_id = $1 AND ($2::boolean IS NULL OR livemode = $2)) mine
       ) ranked
        WHERE usable OR nth <= $3
        ORDER BY created_at DESC, id DESC`,
      [merchantId, livemode ?? null, RETIRED_KEYS_SHOWN],
    );
  }

  /** Notes a use now, unless one within the last `precisionMs` is already noted (by this gateway or another). */
  async recordUse(id: string, precisionMs: number): Promise<void> {
    await this.db.query(
      `UPDATE gateway.api_keys SET last_used_at = now()
       WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => $2::double precision / 1000))`,
      [id, precisionMs],
    );
  }

  /**
   * Hashes of the keys that still authenticate and were used within `withinMs`, most recent first, at most `limit`:
   * what a gateway replica knows as its merchants' keys from its start (ApiKeyAuthenticator). One scan of the table,
   * once per start.
   */
  async hashesInUse(withinMs: number, limit: number): Promise<Buffer[]> {
    const rows = await this.db.query<Array<{ key_hash: Buffer }>>(
      `SELECT key_hash FROM gateway.api_keys
        WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
          AND last_used_at > now() - make_interval(secs => $1::double precision / 1000)
        ORDER BY last_used_at DESC LIMIT $2`,
      [withinMs, limit],
    );
    return rows.map((row) => row.key_hash);
  }

  /**
   * Revokes once; revoking again keeps the first revocation time. Key
   * caches forget the key: this process's at once, every other gateway's on
   * the NOTIFY, which names it. The notice is sent by the revoking statement
   * itself, so Postgres delivers it when the revocation commits and never
   * commits one without the other. Only the first revocation sends it:
   * a repeat changes nothing any cache holds (ApiKeyCreationsLimiter in the
   * dashboard counts on that).
   */
  async revoke(id: string): Promise<ApiKeyRecord | undefined> {
    const [row] = await returning<ApiKeyRecord>(
      this.db,
      `WITH revoked AS (UPDATE gateway.api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING ${COLUMNS})
       SELECT revoked.* FROM revoked, LATERAL pg_notify($2, revoked.id)
       UNION ALL
       SELECT ${COLUMNS} FROM gateway.api_keys WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM revoked)`,
      [id, API_KEY_REVOKED_CHANNEL],
    );
    if (row) evictFromApiKeyCaches(row.id);
    return row;
  }
}

const COLUMNS = 'id, merchant_id, type, livemode, redacted, scopes, rate_limit_per_second, expires_at, revoked_at, created_at, last_used_at';
