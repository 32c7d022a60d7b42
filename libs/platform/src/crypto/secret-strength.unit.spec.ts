import { randomBytes } from 'node:crypto';
import { weakSecretReason } from './secret-strength';

describe('secret strength (ADMIN_TOKEN, INGEST_TOKEN, SERVER_SECRET)', () => {
  describe('given a generated token', () => {
    it.each([
      ['openssl rand -hex 16 (32 characters)', () => randomBytes(16).toString('hex')],
      ['openssl rand -hex 32', () => randomBytes(32).toString('hex')],
      ['base64url', () => randomBytes(32).toString('base64url')],
      ['the launcher’s adm_ token', () => `adm_${randomBytes(24).toString('hex')}`],
      ['the test stack’s admin- token', () => `admin-${randomBytes(16).toString('hex')}`],
    ])('when it is %s, then it is accepted', (_case, make) => {
      for (let i = 0; i < 50; i += 1) expect(weakSecretReason(make())).toBeUndefined();
    });

    it.each([
      ['TODO inside it', 'q7PzTODOk2vN8rLw4XbY9cMa3JfH6tGd1sEu'],
      ['xxxx inside it', 'Q7pZ-k2Xxxxv8rLw4XbY9cMa3JfH6tGd1sEu'],
      ['your inside it', 'B3nYourk2vN8rLw4XbY9cMa3JfH6tGd1sEuq'],
    ])('when it happens to hold a short placeholder word (%s), then it is accepted', (_case, token) => {
      expect(weakSecretReason(token)).toBeUndefined();
    });
  });

  describe('given a token someone typed or copied', () => {
    it.each([
      ['31 random characters', randomBytes(16).toString('hex').slice(0, 31), 'must be at least 32 characters'],
      ['the old compose default', 'change-me-admin-token', 'must be at least 32 characters'],
      ['change-me, padded', 'change-me-admin-token-0f3a9c2e7b1d', 'looks like a placeholder (contains "change-me")'],
      ['CHANGE_ME in capitals', 'CHANGE_ME_ADMIN_TOKEN_4f9a1c2e7b3d5a8c', 'looks like a placeholder (contains "change_me")'],
      ['changeme', 'changeme4f9a1c2e7b3d5a8c6e0f1a2b3c4d', 'looks like a placeholder (contains "changeme")'],
      ['example', 'example-ingest-token-4f9a1c2e7b3d5a8c', 'looks like a placeholder (contains "example")'],
      ['secret', 'my-admin-secret-4f9a1c2e7b3d5a8c6e0f', 'looks like a placeholder (contains "secret")'],
      ['password', 'Password4f9a1c2e7b3d5a8c6e0f1a2b3c4d', 'looks like a placeholder (contains "password")'],
      ['TODO standing alone', 'TODO-put-the-ingest-token-4f9a1c2e7b3d', 'looks like a placeholder (contains "todo")'],
      ['a masked value', 'xxxx-xxxx-xxxx-4f9a1c2e7b3d5a8c6e0f1a2b', 'looks like a placeholder (contains "xxxx")'],
      ['your-… at the start', 'your-admin-token-4f9a1c2e7b3d5a8c6e0f', 'looks like a placeholder (contains "your")'],
      ['one character repeated', 'a'.repeat(40), 'looks like a placeholder (too few distinct characters)'],
      ['a short pattern repeated', 'ab12'.repeat(10), 'looks like a placeholder (too few distinct characters)'],
      ['a typed sequence', 'abcdefghijklmnopqrstuvwxyz0123456789', 'looks like a placeholder (a typed sequence such as "12345678")'],
      ['digits in order', 'x9Qz-12345678-kPw7', 'must be at least 32 characters'],
      ['digits in order, long enough', 'x9Qz-12345678-kPw7-mR4t-vB8n-Lc2Y-a', 'looks like a placeholder (a typed sequence such as "12345678")'],
    ])('when it is %s (%s), then it is refused', (_case, token, problem) => {
      expect(weakSecretReason(token)).toBe(problem);
    });
  });
});
