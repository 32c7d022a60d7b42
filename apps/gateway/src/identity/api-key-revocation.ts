/**
 * How a key revocation reaches the key caches, kept apart from both the
 * repository that revokes and the cache that forgets so neither imports the
 * other: the repository announces, the caches subscribe.
 */

/** NOTIFY channel of key revocations, the revoked key's id as payload: sent in the revoking transaction, heard by every gateway's key cache. */
export const API_KEY_REVOKED_CHANNEL = 'gateway_api_key_revoked';

interface Evicting {
  evict(keyId: string): void;
}

/** The caches of this process, so a revocation made here reaches them before it is answered. */
const LIVE_CACHES = new Set<Evicting>();

/** Lets a cache hear this process's revocations; answers how to stop. */
export function trackApiKeyCache(cache: Evicting): () => void {
  LIVE_CACHES.add(cache);
  return () => LIVE_CACHES.delete(cache);
}

/** Drops a revoked key from this process's key caches (other processes hear the NOTIFY). */
export function evictFromApiKeyCaches(keyId: string): void {
  for (const cache of LIVE_CACHES) cache.evict(keyId);
}
