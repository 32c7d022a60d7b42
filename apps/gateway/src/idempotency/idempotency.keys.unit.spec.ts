import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { SealError } from '@pp/platform';
import { IdempotencyKeys } from './idempotency.keys';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('IdempotencyKeys', () => {
  const keys = new IdempotencyKeys(randomBytes(32).toString('base64url'), 'ns1');
  const response = { status: 201, body: '{"keys":{"live_secret":"pp_live_abc"},"dashboard_user":{"password":"pw-123"}}' };

  it('given a scope and an Idempotency-Key, when named, then the Redis key is a stable HMAC that shows neither', () => {
    const key = randomUUID();
    const entry = keys.entry('admin:0123456789abcdef', key);
    expect(entry.redisKey).toMatch(/^ns1:gateway:idem:[0-9a-f]{64}$/);
    expect(keys.entry('admin:0123456789abcdef', key).redisKey).toBe(entry.redisKey);
    expect(entry.redisKey).not.toContain(key);
    expect(entry.redisKey).not.toContain('0123456789abcdef');
    expect(entry.redisKey).not.toContain(sha256(key));
    expect(keys.entry('mer_a:live', key).redisKey).not.toBe(keys.entry('mer_b:live', key).redisKey);
  });

  it('given a sealed response, when opened for the same scope and key, then the original comes back, and nowhere else', () => {
    const key = randomUUID();
    const entry = keys.entry('mer_a:live', key);
    const sealed = keys.sealResponse(entry, response);
    expect(sealed).not.toContain('pp_live_abc');
    expect(keys.openResponse(entry, sealed)).toEqual(response);
    expect(() => keys.openResponse(keys.entry('mer_b:live', key), sealed)).toThrow(SealError);
    expect(() => keys.openResponse(keys.entry('mer_a:live', randomUUID()), sealed)).toThrow(SealError);
    const otherSecret = new IdempotencyKeys(randomBytes(32).toString('base64url'), 'ns1');
    expect(() => otherSecret.openResponse(otherSecret.entry('mer_a:live', key), sealed)).toThrow(SealError);
  });

  it('given a request, when checked, then route and body fingerprint decide, keyed so a plain body hash never shows', () => {
    const entry = keys.entry('mer_a:test', randomUUID());
    const fingerprint = sha256('{"password":"pw-123"}');
    const check = keys.check(entry, 'POST /v1/admin/merchants', fingerprint);
    expect(keys.check(entry, 'POST /v1/admin/merchants', fingerprint)).toBe(check);
    expect(keys.check(entry, 'POST /v1/admin/merchants/x/keys', fingerprint)).not.toBe(check);
    expect(keys.check(entry, 'POST /v1/admin/merchants', sha256('{}'))).not.toBe(check);
    expect(check).not.toContain(fingerprint);
  });
});
