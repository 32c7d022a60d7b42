import type { KeyObject } from 'node:crypto';
import { deriveKey, KeyDeriver, keyedDigest, open, seal } from '@pp/platform';
import { redisKey } from '../redis-key';

/** One Idempotency-Key in one scope, as Redis sees it: an opaque name and the key that seals its entry. */
export interface IdempotencyEntryKeys {
  redisKey: string;
  sealKey: KeyObject;
}

export interface StoredResponse {
  status: number;
  body: string;
}

/**
 * What keeps the idempotency cache free of secrets (docs/ARCHITECTURE.md,
 * Idempotency): the Redis key is an HMAC of scope and Idempotency-Key under a
 * sub-key of SERVER_SECRET, and each entry is sealed (AES-256-GCM) under a key
 * derived (HKDF) from another sub-key, the scope and the Idempotency-Key. A
 * Redis dump alone reveals neither the keys, the request fingerprints nor the
 * responses; replaying needs the Idempotency-Key itself in the same scope.
 */
export class IdempotencyKeys {
  private readonly nameKey: KeyObject;
  private readonly sealRoot: KeyObject;
  /** deriveKey(sealRoot, ·) with its per-secret half done once: one HMAC per request instead of a full HKDF. */
  private readonly sealKeys: KeyDeriver;

  constructor(
    serverSecret: string,
    private readonly namespace: string,
  ) {
    this.nameKey = deriveKey(serverSecret, 'gateway/idempotency/name');
    this.sealRoot = deriveKey(serverSecret, 'gateway/idempotency/response');
    this.sealKeys = new KeyDeriver(this.sealRoot);
  }

  entry(scope: string, idempotencyKey: string): IdempotencyEntryKeys {
    return {
      redisKey: redisKey(this.namespace, 'gateway', 'idem', keyedDigest(this.nameKey, scope, idempotencyKey)),
      sealKey: this.sealKeys.derive(keyedDigest(this.sealRoot, scope, idempotencyKey)),
    };
  }

  /** Where the bytes of answers a scope keeps are counted (IdempotencyStore.complete): named, like entries, by an HMAC of the scope. */
  keptBytes(scope: string): string {
    return redisKey(this.namespace, 'gateway', 'idem-kept', keyedDigest(this.nameKey, 'kept bytes', scope));
  }

  /** The request's route and body fingerprint, keyed, so "same request?" can be asked without storing a plain hash of the body. */
  check(entry: IdempotencyEntryKeys, route: string, fingerprint: string): string {
    return keyedDigest(entry.sealKey, route, fingerprint);
  }

  sealResponse(entry: IdempotencyEntryKeys, response: StoredResponse): string {
    return seal(entry.sealKey, JSON.stringify(response), entry.redisKey);
  }

  /** Throws SealError when the entry was not sealed for this name and key. */
  openResponse(entry: IdempotencyEntryKeys, sealed: string): StoredResponse {
    return JSON.parse(open(entry.sealKey, sealed, entry.redisKey).toString('utf8')) as StoredResponse;
  }
}
