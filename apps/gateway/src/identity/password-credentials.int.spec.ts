import { newId } from '@pp/kernel';
import { repositoryDatabase } from '@pp/testing';
import type { DataSource } from 'typeorm';
import { GatewayDatabase } from '../database/gateway.database';
import { PlatformAdminRepository } from './platform-admin.repository';

describe('a password set on a platform admin (real Postgres, the gateway role)', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let admins: PlatformAdminRepository;

  beforeAll(async () => {
    ({ dataSource, close } = await repositoryDatabase(GatewayDatabase, 'passwords'));
    admins = new PlatformAdminRepository(dataSource);
  }, 60_000);
  afterAll(async () => {
    await close?.();
  });

  const anAdmin = () => admins.insert({ id: newId('user'), email: `${newId('user')}@ops.example`, password_hash: 'old-hash' });

  it('given an admin, when a password is set, then the hash changes and the credential version moves on', async () => {
    const admin = await anAdmin();
    expect(await admins.setPassword(admin.id, 'new-hash')).toBe(1);
    expect(await admins.findById(admin.id)).toMatchObject({ password_hash: 'new-hash', credential_version: 1 });
  });

  it('given an admin removed after it was read (a reset racing a removal), when a password is set, then NOT_FOUND and the row keeps its hash', async () => {
    const admin = await anAdmin();
    expect(await admins.remove(admin.id)).toMatchObject({ id: admin.id, removed_at: expect.any(Date) });
    await expect(admins.setPassword(admin.id, 'new-hash')).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Platform admin not found' });
    const [row] = await dataSource.query(`SELECT password_hash, credential_version FROM gateway.platform_admins WHERE id = $1`, [admin.id]);
    expect(row).toEqual({ password_hash: 'old-hash', credential_version: 0 });
  });
});
