import { ApiKeyCacheEntries, MAX_REMEMBERED_REVOCATIONS } from './api-key-cache-entries';

const TTL_MS = 5_000;
const NOW = 1_000_000;
const keyA = { id: 'key_a' };
const keyB = { id: 'key_b' };

/** A cache holding A and B, each read by a lookup that began with nothing revoked. */
function holdingBoth(): ApiKeyCacheEntries<{ id: string }> {
  const entries = new ApiKeyCacheEntries<{ id: string }>(TTL_MS);
  entries.set('hash-a', keyA, entries.ticket(), NOW);
  entries.set('hash-b', keyB, entries.ticket(), NOW);
  return entries;
}

describe('the key cache’s entries (ApiKeyCacheEntries)', () => {
  it('given keys A and B cached, when A is revoked, then only A is forgotten', () => {
    const entries = holdingBoth();
    entries.evict(keyA.id);
    expect([entries.get('hash-a', NOW), entries.get('hash-b', NOW)]).toEqual([undefined, keyB]);
  });

  it('given lookups of A and B in flight, when A is revoked, then A’s row is not cached and B’s is', () => {
    const entries = new ApiKeyCacheEntries<{ id: string }>(TTL_MS);
    const ticket = entries.ticket();
    entries.evict(keyA.id);
    entries.set('hash-a', keyA, ticket, NOW);
    entries.set('hash-b', keyB, ticket, NOW);
    expect([entries.get('hash-a', NOW), entries.get('hash-b', NOW)]).toEqual([undefined, keyB]);
  });

  it('given a revoked key, when a lookup that began after the revocation reads it, then it is cached', () => {
    const entries = new ApiKeyCacheEntries<{ id: string }>(TTL_MS);
    entries.evict(keyA.id);
    entries.set('hash-a', keyA, entries.ticket(), NOW);
    expect(entries.get('hash-a', NOW)).toBe(keyA);
  });

  it('given keys cached and a lookup in flight, when cleared, then every key is forgotten and the lookup caches nothing', () => {
    const entries = holdingBoth();
    const ticket = entries.ticket();
    entries.clear();
    entries.set('hash-a', keyA, ticket, NOW);
    expect([entries.get('hash-a', NOW), entries.get('hash-b', NOW)]).toEqual([undefined, undefined]);
  });

  it('given more revocations than are remembered, when a lookup that began before them all sets, then it caches nothing', () => {
    const entries = new ApiKeyCacheEntries<{ id: string }>(TTL_MS);
    const ticket = entries.ticket();
    entries.evict(keyB.id); // the first revocation, forgotten below: the lookup may have read B before it
    for (let i = 0; i < MAX_REMEMBERED_REVOCATIONS; i++) entries.evict(`key_other${i}`);
    entries.set('hash-b', keyB, ticket, NOW);
    expect(entries.get('hash-b', NOW)).toBeUndefined();
  });

  it('given a key cached, when its TTL has passed, then it is no longer answered', () => {
    const entries = holdingBoth();
    expect([entries.get('hash-a', NOW + TTL_MS - 1), entries.get('hash-a', NOW + TTL_MS)]).toEqual([keyA, undefined]);
  });
});
