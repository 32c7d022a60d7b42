import { type AddTeamUserCommand, ErrorCode } from '@pp/contracts';
import type { DataSource } from 'typeorm';
import type { CommandCreationRequests } from '../idempotency/creation-requests';
import { hashPassword } from '../identity/password';
import { EMAIL_TAKEN, TeamHandler } from './team.handler';

jest.mock('../identity/password', () => ({ ...jest.requireActual('../identity/password'), hashPassword: jest.fn(async () => 'scrypt$hash') }));

/** A database where the e-mail belongs to a platform admin. */
const adminTables = { query: async (sql: string) => (sql.includes('FROM gateway.platform_admins') ? [{ id: 'adm_1', email: 'ops@platform.example' }] : []) };
const withAdmin = { ...adminTables, transaction: (work: (tx: typeof adminTables) => Promise<unknown>) => work(adminTables) } as unknown as DataSource;
const noKey = { of: () => undefined } as unknown as CommandCreationRequests;

describe('TeamHandler, adding a user', () => {
  it('given a platform admin’s e-mail, when an owner adds it: refused as taken only after the password was hashed, as for a merchant user’s (no quicker answer tells operators apart)', async () => {
    const handler = new TeamHandler(withAdmin, noKey);
    const command = { merchant_id: 'mer_1', email: 'ops@platform.example', role: 'developer' } as AddTeamUserCommand;
    await expect(handler.add(command)).rejects.toMatchObject({ code: ErrorCode.Conflict, message: EMAIL_TAKEN });
    expect(hashPassword).toHaveBeenCalledTimes(1);
  });
});
