import { IDEMPOTENCY_KEY_REQUIRED } from '@pp/contracts';
import { dashboardIdempotencyKeyRefusal, MAX_IDEMPOTENCY_KEY_LENGTH, userIdempotencyKey } from './idempotency-key.policy';

describe('the dashboard’s Idempotency-Key', () => {
  it.each([
    ['no header', undefined],
    ['an empty one', ''],
    ['blanks', '   '],
    ['one sent twice', ['a', 'b']],
  ])('refuses %s as missing, in the gateway’s words', (_case, header) => {
    expect(dashboardIdempotencyKeyRefusal(header)).toBe(IDEMPOTENCY_KEY_REQUIRED);
  });

  it('takes a key up to its length limit, and refuses a longer one naming the limit', () => {
    expect(dashboardIdempotencyKeyRefusal('k'.repeat(MAX_IDEMPOTENCY_KEY_LENGTH))).toBeUndefined();
    expect(dashboardIdempotencyKeyRefusal('k'.repeat(MAX_IDEMPOTENCY_KEY_LENGTH + 1))).toBe(`Validation failed: Idempotency-Key must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
  });

  it('records a key in the signed-in user’s own space, within the 255 characters a command carries', () => {
    const longestUser = `usr_${'a'.repeat(64)}`;
    expect(userIdempotencyKey('usr_1', 'k1')).toBe('dashboard:usr_1:k1');
    expect(userIdempotencyKey('usr_2', 'k1')).not.toBe(userIdempotencyKey('usr_1', 'k1'));
    expect(userIdempotencyKey(longestUser, 'k'.repeat(MAX_IDEMPOTENCY_KEY_LENGTH)).length).toBeLessThanOrEqual(255);
  });
});
