import { POSTGRES_KEEPALIVE } from '@pp/platform';
import { Client } from 'pg';
import { ApiKeyCacheEntries } from './api-key-cache-entries';
import { API_KEY_REVOKED_CHANNEL, trackApiKeyCache } from './api-key-revocation';

const RELISTEN_MS = 1_000;

/**
 * Keys found by hash, kept a few seconds so a busy key costs no database
 * round trip per request. A revocation drops the revoked key (and only it)
 * from every gateway: at once in the revoking process, and as soon as the
 * NOTIFY, which names the key, arrives elsewhere. Each gateway listens,
 * caches nothing while it is not listening, and once it listens again
 * forgets every key and every lookup begun before (it may have missed
 * revocations meanwhile), so a lost connection cannot keep a revoked key
 * alive. The TTL bounds anything else that changes a key row behind the
 * gateway's back (a revocation by hand in SQL, an expiry moved): at most
 * `ttlMs` (API_KEY_CACHE_TTL_MS).
 */
export class ApiKeyCache<Key extends { id: string }> {
  private readonly entries: ApiKeyCacheEntries<Key>;
  private listener?: Client;
  private listening = false;
  private retry?: NodeJS.Timeout;
  private closed = false;
  private untrack?: () => void;

  constructor(
    private readonly databaseUrl: string,
    ttlMs: number,
    private readonly onTrouble: (error: Error) => void,
  ) {
    this.entries = new ApiKeyCacheEntries(ttlMs);
  }

  get(hash: string, now: number): Key | undefined {
    return this.entries.get(hash, now);
  }

  /** A ticket for a lookup about to start; `set` ignores it if that key was revoked, or the cache cleared, meanwhile. */
  ticket(): number {
    return this.entries.ticket();
  }

  set(hash: string, key: Key, ticket: number, now: number): void {
    if (this.listening) this.entries.set(hash, key, ticket, now);
  }

  /** Drops a revoked key. */
  evict(keyId: string): void {
    this.entries.evict(keyId);
  }

  async listen(): Promise<void> {
    this.untrack ??= trackApiKeyCache(this);
    const client = new Client({ connectionString: this.databaseUrl, ...POSTGRES_KEEPALIVE });
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      this.lost(client, error);
    };
    // The repository's notice names the revoked key; one naming none (a NOTIFY by hand) cannot say which to drop.
    client.on('notification', ({ payload }) => (payload ? this.entries.evict(payload) : this.entries.clear()));
    client.on('error', fail);
    client.on('end', () => fail(new Error('revocation listener disconnected')));
    try {
      await client.connect();
      await client.query(`LISTEN ${API_KEY_REVOKED_CHANNEL}`);
      // Closed while connecting (a shutdown during a relisten): nothing else would end this connection.
      if (this.closed) {
        await client.end().catch(() => undefined);
        return;
      }
      this.listener = client;
      this.listening = true;
      // Notices sent before LISTEN took effect never reach us: lookups begun meanwhile may hold a row revoked since.
      this.entries.clear();
    } catch (error) {
      fail(error instanceof Error ? error : new Error(String(error)));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.untrack?.();
    this.untrack = undefined;
    clearTimeout(this.retry);
    this.listening = false;
    await this.listener?.end().catch(() => undefined);
  }

  private lost(client: Client, error: Error): void {
    if (this.closed) return;
    this.listening = false;
    this.listener = undefined;
    this.entries.clear();
    this.onTrouble(error);
    void client.end().catch(() => undefined);
    clearTimeout(this.retry);
    this.retry = setTimeout(() => void this.listen(), RELISTEN_MS);
  }
}
