import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { loadConfig, WithDatabase } from '@pp/platform';
import { assertServiceDatabase, dataSourceFor } from '@pp/platform/typeorm';
import { AUDIT_NOT_RECORDED } from '@pp/contracts';
import type { DataSource } from 'typeorm';
import { CreateMerchantBody } from './admin/admin.bodies';
import { type AdminAuditFact, merchantCreatedFact, platformAdminCreatedFact, platformAdminPasswordResetFact, platformAdminRemovedFact } from './admin/operator-audit-entry';
import { recordCliAction } from './cli/cli-audit';
import { seedDemo, seedDemoPlatformAdmin } from './cli/demo-seed';
import { GatewayDatabase } from './database/gateway.database';
import { MerchantProvisioningService } from './identity/merchant-provisioning.service';
import { createPlatformAdmin, platformAdminIdByEmail, removePlatformAdmin, resetPlatformAdminPassword } from './identity/platform-admin.service';

const USAGE = `Usage: node dist/apps/gateway/src/cli.js <command> [options]   (needs DATABASE_URL, the gateway's role)

  merchant:create --name <name> --email <email> [--password <password>] [--etransfer-email <email>]
      Creates a merchant, its owner dashboard user and four default keys; prints them once as JSON
      (the same JSON as POST /v1/admin/merchants). Recorded in the audit trail, as the admin route is.
  demo:seed --out <file>
      Creates the demo merchant once and writes its keys and dashboard login to <file>; when <file>
      exists and its merchant still does, just prints it.
  demo:seed-platform-admin --out <file>
      Creates the demo platform admin (ops@demo.example.com) once and writes its sign-in to <file>.
  platform-admin:create --email <email> [--password <password>]
      Creates a platform admin for the dashboard's admin console; prints the generated password once.
      Recorded in the audit trail, as the admin route is.
  platform-admin:reset-password --email <email> [--password <password>]
      Sets a platform admin's password without the old one; prints the generated password once. The admin's
      open dashboard sessions end within DASHBOARD_PRINCIPAL_RECHECK_SECONDS. Recorded in the audit trail.
  platform-admin:remove --email <email>
      Removes a platform admin: sign-in refuses it at once, its open dashboard sessions end within
      DASHBOARD_PRINCIPAL_RECHECK_SECONDS. Recorded in the audit trail.
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
      'etransfer-email': { type: 'string' },
      out: { type: 'string' },
    },
    strict: true,
  });
  const { DATABASE_URL } = loadConfig(CliConfig, process.env);
  const dataSource = dataSourceFor(GatewayDatabase, { url: DATABASE_URL, poolSize: 2, applicationName: 'gateway-cli' });
  await dataSource.initialize();
  try {
    await assertServiceDatabase(dataSource, GatewayDatabase);
    switch (command) {
      case 'merchant:create': {
        const body = validMerchant({
          name: required(values.name, '--name'),
          email: required(values.email, '--email'),
          password: values.password,
          etransfer_email: values['etransfer-email'],
        });
        const merchant = await new MerchantProvisioningService(dataSource).createMerchant(body);
        return await recorded(dataSource, merchant, merchantCreatedFact(merchant, body.etransfer_email));
      }
      case 'demo:seed':
        return await seedDemo(dataSource, required(values.out, '--out'));
      case 'demo:seed-platform-admin':
        return await seedDemoPlatformAdmin(dataSource, required(values.out, '--out'));
      case 'platform-admin:create': {
        const admin = await createPlatformAdmin(dataSource, { email: required(values.email, '--email'), password: values.password });
        return await recorded(dataSource, admin, platformAdminCreatedFact(admin));
      }
      case 'platform-admin:reset-password': {
        const id = await platformAdminIdByEmail(dataSource, required(values.email, '--email'));
        const admin = await resetPlatformAdminPassword(dataSource, id, values.password);
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
 * Records the done action in the audit trail. Its output is the one copy of the
 * secrets it made, so it is printed either way; unrecorded, the command says so
 * and exits non-zero.
 */
async function recorded<T>(dataSource: DataSource, result: T, fact: AdminAuditFact): Promise<T> {
  if (!(await recordCliAction(dataSource, fact))) {
    process.stderr.write(`gateway cli: ${AUDIT_NOT_RECORDED}\n`);
    process.exitCode = 1;
  }
  return result;
}

/** The same rules as the admin route's body. */
function validMerchant(input: CreateMerchantBody): CreateMerchantBody {
  const body = plainToInstance(CreateMerchantBody, input);
  const problems = validateSync(body, { forbidUnknownValues: false }).flatMap((e) => Object.values(e.constraints ?? {}));
  if (problems.length > 0) throw new UsageError(problems.join('; '));
  return body;
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
