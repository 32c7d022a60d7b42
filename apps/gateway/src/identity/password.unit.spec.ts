import { randomBytes, scryptSync } from 'node:crypto';
import { DomainError, ErrorCode } from '@pp/contracts';
import { generatePassword, hashPassword, needsRehash, PASSWORD_WORK_BUSY, verifyPassword } from './password';

describe('dashboard passwords (scrypt)', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^scrypt\$32768\$8\$3\$[\w-]+\$[\w-]+$/);
    await expect(verifyPassword('correct horse battery', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct horse batterY', stored)).resolves.toBe(false);
    await expect(verifyPassword('anything', 'plain-text')).resolves.toBe(false);
  });

  it('salts every hash and generates long random passwords', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'));
    expect(generatePassword()).toMatch(/^[0-9A-Za-z]{22}$/);
  });

  it('given a hash made with the earlier p=1, then it still verifies and asks to be remade; today\'s does not', async () => {
    const salt = randomBytes(16);
    const earlier = ['scrypt', 32768, 8, 1, salt.toString('base64url'), scryptSync('old cost', salt, 32, { N: 32768, r: 8, p: 1, maxmem: 64 << 20 }).toString('base64url')].join('$');
    await expect(verifyPassword('old cost', earlier)).resolves.toBe(true);
    expect(needsRehash(earlier)).toBe(true);
    expect(needsRehash(await hashPassword('old cost'))).toBe(false);
  });

  it('given a flood of sign-ins, when more hashes are asked for than run at once and wait in line, then the rest are refused at once as busy, and the others verify', async () => {
    const stored = await hashPassword('flooded');
    const results = await Promise.allSettled(Array.from({ length: 40 }, () => verifyPassword('flooded', stored)));
    const refused = results.filter((result) => result.status === 'rejected');
    expect(results.filter((result) => result.status === 'fulfilled' && result.value === true)).toHaveLength(34);
    expect(refused).toHaveLength(6);
    for (const result of refused) {
      expect((result as PromiseRejectedResult).reason).toEqual(new DomainError(ErrorCode.ServiceUnavailable, PASSWORD_WORK_BUSY));
      expect((result as PromiseRejectedResult).reason.code).toBe(ErrorCode.ServiceUnavailable);
    }
    await expect(verifyPassword('flooded', stored)).resolves.toBe(true);
  }, 30_000);
});
