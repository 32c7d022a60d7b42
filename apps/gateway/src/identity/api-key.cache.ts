import { Client } from 'pg';
import { API_KEY_REVOKED_CHANNEL, trackApiKeyCache } from './api-key-revocation';

const MAX_ENTRIES = 10_000;
const RELISTEN_MS = 1_000;

/**
 * Keys found by hash, kept a few seconds so a busy key costs no database
 * round trip per request. Revocation empties it on every gateway: at once in
 * the revoking process, and as soon as the NOTIFY arrives elsewhere (each
 * gateway listens, caches nothing while it is not listening, and once it
 * listens again discards lookups begun before, so a lost connection cannot
 * keep a revoked key alive). The TTL bounds anything else that changes a
 * key row behind the gateway's back (a revocation by hand in SQL, an expiry
 * moved): at most `ttlMs` (API_KEY_CACHE_TTL_MS).
 */
export class ApiKeyCache<Key> {
  private readonly entries = new Map<string, { key: Key; until: number }>();
  /** Bumped on every clear: a lookup that began before a revocation must not cache what it read. */
  private generation = 0;
  private listener?: Client;
  private listening = false;
  private retry?: NodeJS.Timeout;
  private closed = false;
  private untrack?: () => void;

  constructor(
    private readonly databaseUrl: string,
    private readonly ttlMs: number,
    private readonly onTrouble: (error: Error) => void,
  ) {}

  get(hash: string, now: number): Key | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.until > now) return entry.key;
    this.entries.delete(hash);
    return undefined;
  }

  /** A ticket for a lookup about to start; `set` ignores it if the cache was cleared meanwhile. */
  ticket(): number {
    return this.generation;
  }

  set(hash: string, key: Key, ticket: number, now: number): void {
    if (!this.listening || ticket !== this.generation) return;
    // A key looked up again replaces its own entry: only a new one crowds out the oldest.
    if (!this.entries.has(hash) && this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(hash, { key, until: now + this.ttlMs });
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  async listen(): Promise<void> {
    this.untrack ??= trackApiKeyCache(this);
    const client = new Client({ connectionString: this.databaseUrl });
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      this.lost(client, error);
    };
    client.on('notification', () => this.clear());
    client.on('error', fail);
    client.on('end', () => fail(new Error('revocation listener disconnected')));
    try {
      await client.connect();
      await client.query(`LISTEN ${API_KEY_REVOKED_CHANNEL}`);
      this.listener = client;
      this.listening = true;
      // Notices sent before LISTEN took effect never reach us: lookups begun meanwhile may hold a row revoked since.
      this.clear();
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
    this.clear();
    this.onTrouble(error);
    void client.end().catch(() => undefined);
    clearTimeout(this.retry);
    this.retry = setTimeout(() => void this.listen(), RELISTEN_MS);
  }
}
