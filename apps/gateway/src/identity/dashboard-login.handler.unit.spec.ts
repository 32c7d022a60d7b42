import type { DataSource } from 'typeorm';
import { DashboardLoginHandler, INVALID_SIGN_IN } from './dashboard-login.handler';
import { hashPassword } from './password';
import type { PlatformAdminRecord } from './platform-admin.repository';

/** A database holding one platform admin, recording the tables each sign-in reads. */
function databaseWith(admin: PlatformAdminRecord) {
  const read: string[] = [];
  const query = async (sql: string, parameters: unknown[]) => {
    const table = /FROM gateway\.(\w+)/.exec(sql)?.[1] ?? sql;
    read.push(table);
    return table === 'platform_admins' && String(parameters[0]).toLowerCase() === admin.email ? [admin] : [];
  };
  return { dataSource: { query } as unknown as DataSource, read };
}

describe('dashboard sign-in (DashboardLoginHandler)', () => {
  it('given an operator’s e-mail or an unknown one, then both tables are read either way, so the timing does not tell operators apart', async () => {
    const admin: PlatformAdminRecord = {
      id: 'usr_operator',
      email: 'ops@platform.example',
      password_hash: await hashPassword('a good passphrase'),
      created_at: new Date(),
      credential_version: 1,
      removed_at: null,
    };
    const { dataSource, read } = databaseWith(admin);
    const handler = new DashboardLoginHandler(dataSource);

    await expect(handler.login({ email: 'ops@platform.example', password: 'a wrong passphrase' })).rejects.toMatchObject({ message: INVALID_SIGN_IN });
    expect([...read].sort()).toEqual(['dashboard_users', 'platform_admins']);
    read.length = 0;
    await expect(handler.login({ email: 'nobody@shop.example', password: 'a wrong passphrase' })).rejects.toMatchObject({ message: INVALID_SIGN_IN });
    expect([...read].sort()).toEqual(['dashboard_users', 'platform_admins']);
    read.length = 0;
    await expect(handler.login({ email: 'ops@platform.example', password: 'a good passphrase' })).resolves.toMatchObject({ id: 'usr_operator', role: 'platform_admin' });
    expect([...read].sort()).toEqual(['dashboard_users', 'platform_admins']);
  });
});
