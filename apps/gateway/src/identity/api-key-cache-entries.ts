/** Keys cached at most; past this a new key crowds out the oldest. */
export const MAX_CACHED_KEYS = 10_000;
/** Revocations remembered for the lookups still in flight; past this the oldest is forgotten (see `evict`). */
export const MAX_REMEMBERED_REVOCATIONS = 1_000;

/**
 * The key cache's memory, without its listener (ApiKeyCache): key rows by
 * hash, for `ttlMs`, and what a revocation needs to forget one key only. A
 * revocation names the key's id, so the cache knows each cached key's hash.
 * A lookup takes a ticket before it reads the row, and `set` refuses a row
 * read before that key's revocation or before a `clear`, so a lookup in
 * flight cannot put a revoked key back, while lookups of other keys still
 * cache what they read.
 */
export class ApiKeyCacheEntries<Key extends { id: string }> {
  private readonly entries = new Map<string, { key: Key; until: number }>();
  /** The hash each cached key is held under (a key's hash never changes). */
  private readonly hashOfKey = new Map<string, string>();
  /** Counts evictions and clears; a ticket is its value when the lookup starts. */
  private changes = 0;
  /** The change at which each recently revoked key was evicted, oldest first. */
  private readonly evictedAt = new Map<string, number>();
  /** Lookups with an older ticket cache nothing: everything was cleared since, or a revocation since was forgotten. */
  private oldestCacheableTicket = 0;

  constructor(private readonly ttlMs: number) {}

  get(hash: string, now: number): Key | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.until > now) return entry.key;
    this.drop(hash);
    return undefined;
  }

  /** A ticket for a lookup about to start. */
  ticket(): number {
    return this.changes;
  }

  set(hash: string, key: Key, ticket: number, now: number): void {
    if (ticket < this.oldestCacheableTicket || ticket < (this.evictedAt.get(key.id) ?? 0)) return;
    // A key looked up again replaces its own entry: only a new one crowds out the oldest.
    if (!this.entries.has(hash) && this.entries.size >= MAX_CACHED_KEYS) this.drop(this.entries.keys().next().value!);
    this.entries.set(hash, { key, until: now + this.ttlMs });
    this.hashOfKey.set(key.id, hash);
  }

  /**
   * Forgets a revoked key, and refuses it to lookups already in flight. Only
   * the last MAX_REMEMBERED_REVOCATIONS are remembered: forgetting an older
   * one refuses every lookup that began before it, which a lookup (one
   * indexed read) is long finished by.
   */
  evict(keyId: string): void {
    this.changes++;
    this.evictedAt.delete(keyId); // re-added last: the map stays in eviction order
    this.evictedAt.set(keyId, this.changes);
    if (this.evictedAt.size > MAX_REMEMBERED_REVOCATIONS) {
      const [oldest, at] = this.evictedAt.entries().next().value!;
      this.evictedAt.delete(oldest);
      this.oldestCacheableTicket = at;
    }
    const hash = this.hashOfKey.get(keyId);
    if (hash !== undefined) this.drop(hash);
  }

  /** Forgets every key, and refuses every lookup in flight: for when revocations may have been missed. */
  clear(): void {
    this.changes++;
    this.oldestCacheableTicket = this.changes;
    this.evictedAt.clear();
    this.entries.clear();
    this.hashOfKey.clear();
  }

  private drop(hash: string): void {
    const entry = this.entries.get(hash);
    if (!entry) return;
    this.entries.delete(hash);
    this.hashOfKey.delete(entry.key.id);
  }
}
