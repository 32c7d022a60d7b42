import { type AddTeamUserCommand, ErrorCode } from '@pp/contracts';
import { newId } from '@pp/kernel';
import { repositoryDatabase } from '@pp/testing';
import type { DataSource } from 'typeorm';
import { GatewayDatabase } from '../database/gateway.database';
import type { CommandCreationRequests } from '../idempotency/creation-requests';
import { TeamHandler } from '../team/team.handler';
import { MerchantProvisioningService } from './merchant-provisioning.service';
import { createPlatformAdmin } from './platform-admin.service';

/** Both creations at once, ten times over: each time exactly one may make its account, the other is refused CONFLICT. */
async function expectOneOfEachPair(makePair: (email: string) => [Promise<unknown>, Promise<unknown>]): Promise<void> {
  for (let round = 0; round < 10; round += 1) {
    const outcomes = await Promise.allSettled(makePair(`${newId('user')}@race.example`));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.find((outcome) => outcome.status === 'rejected')).toMatchObject({ reason: { code: ErrorCode.Conflict } });
  }
}

describe('one e-mail, one account across merchant users and platform admins (real Postgres, the gateway role)', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let merchants: MerchantProvisioningService;

  beforeAll(async () => {
    ({ dataSource, close } = await repositoryDatabase(GatewayDatabase, 'account-emails'));
    merchants = new MerchantProvisioningService(dataSource);
  }, 60_000);
  afterAll(async () => {
    await close?.();
  });

  const accountsWith = async (email: string): Promise<number> => {
    const [{ count }] = await dataSource.query(
      `SELECT (SELECT count(*) FROM gateway.dashboard_users WHERE lower(email) = lower($1)) + (SELECT count(*) FROM gateway.platform_admins WHERE lower(email) = lower($1)) AS count`,
      [email],
    );
    return Number(count);
  };

  it('given nothing with the e-mail, when a merchant owner and a platform admin are created with it at the same moment, then one of them is made', async () => {
    const emails: string[] = [];
    await expectOneOfEachPair((email) => {
      emails.push(email);
      return [merchants.createMerchant({ name: 'Race Shop', email }), createPlatformAdmin(dataSource, { email })];
    });
    for (const email of emails) expect(await accountsWith(email)).toBe(1);
  }, 60_000);

  it('given an owner, when the owner adds a team user with an e-mail a platform admin is being created with at the same moment, then one of them is made', async () => {
    const owner = await merchants.createMerchant({ name: 'Team Shop', email: `${newId('user')}@owner.example` });
    const team = new TeamHandler(dataSource, { of: () => undefined } as unknown as CommandCreationRequests);
    const addition = (email: string) =>
      team.add({ merchant_id: owner.merchant_id, email, role: 'developer', acting_user_id: owner.dashboard_user.id } as AddTeamUserCommand);
    await expectOneOfEachPair((email) => [addition(email), createPlatformAdmin(dataSource, { email })]);
  }, 60_000);

  it('given a platform admin, when a merchant is created with the admin’s e-mail in another case, then CONFLICT naming the admin, and no merchant is left behind', async () => {
    const email = `${newId('user')}@ops.example`;
    await createPlatformAdmin(dataSource, { email });
    const merchantsBefore = await dataSource.query(`SELECT count(*)::int AS count FROM gateway.merchants`);
    await expect(merchants.createMerchant({ name: 'Shadow Shop', email: email.toUpperCase() })).rejects.toMatchObject({
      code: ErrorCode.Conflict,
      message: 'A platform admin with this email already exists',
    });
    expect(await dataSource.query(`SELECT count(*)::int AS count FROM gateway.merchants`)).toEqual(merchantsBefore);
  });
});
