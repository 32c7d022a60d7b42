import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { CLI_ACTOR } from '../cli/cli-audit';
import { ADMIN_TOKEN_ACTOR } from './admin-audit';
import { CreatePlatformAdminBody } from './admin.bodies';

/*
 * The audit trail names the operator's actors in the columns a platform admin's entries fill with its own id and
 * e-mail: actor_email ADMIN_TOKEN or gateway CLI, actor_id admin-token:… or cli:…. A platform admin named like one
 * of them would pass for it; the e-mail rule (the admin route's and, through the same class, the CLI's) refuses them.
 */
describe('a platform admin’s e-mail (POST /v1/admin/platform_admins, platform-admin:create)', () => {
  const problems = (email: string) => validateSync(plainToInstance(CreatePlatformAdminBody, { email })).flatMap((error) => Object.values(error.constraints ?? {}));

  it.each([ADMIN_TOKEN_ACTOR, CLI_ACTOR, 'cli:root', 'cli:root@host.example', 'admin-token:0a1b@host.example'])('refuses the audit actor name %p', (email) => {
    expect(problems(email)).toContain('email must be an e-mail address');
  });

  it('takes an ordinary address', () => {
    expect(problems('ops@platform.example')).toEqual([]);
  });
});
