import { DomainError, ErrorCode, IDEMPOTENCY_KEY_REUSED } from '@pp/contracts';
import { type CreationOperation, repeatedCreationRefusal } from './creation-request.policy';

describe('repeatedCreationRefusal', () => {
  const recorded = (operation: CreationOperation, created_id: string) => ({ operation, created_id, keyed_fingerprint: 'same' });

  it('given no creation recorded under the key, lets the creation go ahead', () => {
    expect(repeatedCreationRefusal(undefined, 'same')).toBeUndefined();
  });

  it.each([
    ['api_key', 'key_abc', /^This Idempotency-Key already issued key_abc; .*was lost: revoke key_abc and issue another$/],
    ['merchant', 'mer_abc', /^This Idempotency-Key already created merchant mer_abc; .*was lost: issue mer_abc new keys/],
    ['platform_admin', 'usr_abc', /^This Idempotency-Key already created platform admin usr_abc; .*POST \/v1\/admin\/platform_admins\/usr_abc\/password/],
  ] as const)('given the same request made a %s, refuses it 409 naming %s (its secret cannot be shown again)', (operation, id, message) => {
    const refusal = repeatedCreationRefusal(recorded(operation, id), 'same');
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({ code: ErrorCode.Conflict, message: expect.stringMatching(message) });
  });

  it('given the key came with another request (route or body), refuses it 400 in PRODUCT-RULES §D3 words, naming nothing', () => {
    expect(repeatedCreationRefusal(recorded('api_key', 'key_abc'), 'other')).toMatchObject({ code: ErrorCode.ValidationFailed, message: IDEMPOTENCY_KEY_REUSED });
  });
});
