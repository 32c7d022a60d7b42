import { generatePassword, hashPassword, verifyPassword } from './password';

describe('dashboard passwords (scrypt)', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    await expect(verifyPassword('correct horse battery', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct horse batterY', stored)).resolves.toBe(false);
    await expect(verifyPassword('anything', 'plain-text')).resolves.toBe(false);
  });

  it('salts every hash and generates long random passwords', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'));
    expect(generatePassword()).toMatch(/^[0-9A-Za-z]{22}$/);
  });
});
