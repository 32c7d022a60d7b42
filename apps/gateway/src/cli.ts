import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { loadConfig, WithDatabase } from '@pp/platform';
import { assertServiceDatabase, dataSourceFor } from '@pp/platform/typeorm';
import { AUDIT_NOT_RECORDED } from '@pp/contracts';
import type { DataSource } from 'typeorm';
import { CreateMerchantBody, CreatePlatformAdminBody, ResetPasswordBody } from './admin/admin.bodies';
import { type AdminAuditFact, merchantCreatedFact, platformAdminCreatedFact, platformAdminPasswordResetFact, platformAdminRemovedFact } from './admin/operator-audit-entry';
import { recordCliAction } from './cli/cli-audit';
import { demoRefusal, seedDemo, seedDemoPlatformAdmin } from './cli/demo-seed';
import { readPasswordLine } from './cli/password-stdin';
import { GatewayDatabase } from './database/gateway.database';
import { MerchantProvisioningService } from './identity/merchant-provisioning.service';
import { createPlatformAdmin, platformAdminIdByEmail, removePlatformAdmin, resetPlatformAdminPassword } from './identity/platform-admin.service';

const USAGE = `Usage: node dist/apps/gateway/src/cli.js <command> [options]   (needs DATABASE_URL, the gateway's role)

  merchant:create --name <name> --email <email> [--password-stdin] [--etransfer-email <email>]
      Creates a merchant, its owner dashboard user and four default keys; prints them once as JSON
      (the same JSON as POST /v1/admin/merchants, with the same input rules). Recorded in the audit
      trail, as the admin route is.
  platform-admin:create --email <email> [--password-stdin]
      Creates a platform admin for the dashboard's admin console (the same input rules as
      POST /v1/admin/platform_admins); prints the generated password once. Recorded in the audit trail.
  platform-admin:reset-password --email <email> [--password-stdin]
      Sets a platform admin's password without the old one; prints the generated password once. The admin's
      open dashboard sessions end within DASHBOARD_PRINCIPAL_RECHECK_SECONDS. Recorded in the audit trail.
  platform-admin:remove --email <email>
      Removes a platform admin: sign-in refuses it at once, its open dashboard sessions end within
      DASHBOARD_PRINCIPAL_RECHECK_SECONDS. Recorded in the audit trail.

  Passwords: without one, a password is generated and printed once. To choose it, pass --password-stdin
  and give it as the first line of stdin (e.g. printf '%s\\n' "$PASSWORD" | ... --password-stdin), so it
  stays out of the process list and shell history; 12 to 256 characters. --password <password> is still
  taken, for compatibility, but is visible to other users of the machine.

  Development and tests only (refused unless NODE_ENV is unset, development or test; recorded in the audit trail):
  demo:seed --out <file>
      Creates the demo merchant once and writes its keys and dashboard login to <file> (mode 600); when
      <file> exists and its merchant still does, just prints it.
  demo:seed-platform-admin --out <file>
      Creates the demo platform admin (ops@demo.example.com) once and writes its sign-in to <file> (mode 600).
`;

class CliConfig extends WithDatabase(class {}) {}

/** Operator commands against the gateway's identity tables, as the gateway's role, on a migrated schema. */
async function main(argv: string[]): Promise<unknown> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      'etransfer-email': { type: 'string' },
      out: { type: 'string' },
    },
    strict: true,
  });
  const refused = command === 'demo:seed' || command === 'demo:seed-platform-admin' ? demoRefusal(command, process.env.NODE_ENV) : undefined;
  if (refused) throw new Error(refused);
  const password = await chosenPassword(values);
  const { DATABASE_URL } = loadConfig(CliConfig, process.env);
  const dataSource = dataSourceFor(GatewayDatabase, { url: DATABASE_URL, poolSize: 2, applicationName: 'gateway-cli' });
  await dataSource.initialize();
  try {
    await assertServiceDatabase(dataSource, GatewayDatabase);
    switch (command) {
      case 'merchant:create': {
        const body = valid(CreateMerchantBody, {
          name: required(values.name, '--name'),
          email: required(values.email, '--email'),
          password,
          etransfer_email: values['etransfer-email'],
        });
        const merchant = await new MerchantProvisioningService(dataSource).createMerchant(body);
        return await recorded(dataSource, merchant, merchantCreatedFact(merchant, body.etransfer_email));
      }
      case 'demo:seed': {
        const seeded = await seedDemo(dataSource, required(values.out, '--out'));
        return await recorded(dataSource, seeded.value, ...seeded.facts);
      }
      case 'demo:seed-platform-admin': {
        const seeded = await seedDemoPlatformAdmin(dataSource, required(values.out, '--out'));
        return await recorded(dataSource, seeded.value, ...seeded.facts);
      }
      case 'platform-admin:create': {
        const body = valid(CreatePlatformAdminBody, { email: required(values.email, '--email'), password });
        const admin = await createPlatformAdmin(dataSource, body);
        return await recorded(dataSource, admin, platformAdminCreatedFact(admin));
      }
      case 'platform-admin:reset-password': {
        const email = required(values.email, '--email');
        const body = valid(ResetPasswordBody, { password });
        const admin = await resetPlatformAdminPassword(dataSource, await platformAdminIdByEmail(dataSource, email), body.password);
        return await recorded(dataSource, admin, platformAdminPasswordResetFact(admin));
      }
      case 'platform-admin:remove': {
        const removed = await removePlatformAdmin(dataSource, await platformAdminIdByEmail(dataSource, required(values.email, '--email')));
        return await recorded(dataSource, removed, platformAdminRemovedFact(removed));
      }
      default:
        throw new UsageError(command ? `unknown command ${command}` : 'no command given');
    }
  } finally {
    await dataSource.destroy();
  }
}

class UsageError extends Error {}

/**
 * Records the done action in the audit trail (one entry per fact). Its output is
 * the one copy of the secrets it made, so it is printed either way; unrecorded,
 * the command says so and exits non-zero.
 */
async function recorded<T>(dataSource: DataSource, result: T, ...facts: AdminAuditFact[]): Promise<T> {
  let stored = true;
  for (const fact of facts) stored = (await recordCliAction(dataSource, fact)) && stored;
  if (!stored) {
    process.stderr.write(`gateway cli: ${AUDIT_NOT_RECORDED}\n`);
    process.exitCode = 1;
  }
  return result;
}

/**
 * The input checked with the class-validator rules of the admin route's body, so the CLI takes what the admin API
 * takes and nothing more (an e-mail address's shape rules out the audit trail's actor names, ADMIN_TOKEN and
 * gateway CLI, as platform admins' e-mails).
 */
function valid<T extends object>(type: new () => T, input: T): T {
  const body = plainToInstance(type, input);
  const problems = validateSync(body, { forbidUnknownValues: false }).flatMap((e) => Object.values(e.constraints ?? {}));
  if (problems.length > 0) throw new UsageError(problems.join('; '));
  return body;
}

/** The password chosen with --password-stdin (first line of stdin) or --password; undefined: generate one. */
async function chosenPassword(values: { password?: string; 'password-stdin'?: boolean }): Promise<string | undefined> {
  if (!values['password-stdin']) return values.password;
  if (values.password !== undefined) throw new UsageError('give the password either with --password-stdin or with --password, not both');
  const line = await readPasswordLine(process.stdin);
  if (line === undefined) throw new UsageError('--password-stdin: stdin held no password (give it as the first line)');
  return line;
}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`${flag} is required`);
  return value;
}

main(process.argv.slice(2)).then(
  (result) => process.stdout.write(JSON.stringify(result, null, 2) + '\n'),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`gateway cli: ${message}\n${error instanceof UsageError || (error as Error)?.name === 'TypeError' ? USAGE : ''}`);
    process.exit(1);
  },
);
