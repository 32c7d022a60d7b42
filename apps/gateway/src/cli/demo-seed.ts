import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isDevelopmentOrTest } from '@pp/platform/config';
import type { DataSource } from 'typeorm';
import { type AdminAuditFact, apiKeyFact, merchantCreatedFact, platformAdminCreatedFact, platformAdminPasswordResetFact } from '../admin/operator-audit-entry';
import { hashApiKey } from '../identity/api-key';
import { ApiKeyRepository } from '../identity/api-key.repository';
import { DashboardUserRepository } from '../identity/dashboard-user.repository';
import { apiKeyView, type ProvisionedMerchantView } from '../identity/identity.views';
import { MerchantRepository } from '../identity/merchant.repository';
import { MerchantProvisioningService } from '../identity/merchant-provisioning.service';
import { generatePassword, hashPassword } from '../identity/password';
import { PlatformAdminRepository } from '../identity/platform-admin.repository';
import { createPlatformAdmin, type PlatformAdminView } from '../identity/platform-admin.service';

export const DEMO_PLATFORM_ADMIN_EMAIL = 'ops@demo.example.com';

export const DEMO_MERCHANT = { name: 'Demo Merchant', email: 'demo@example.com', etransfer_email: 'payments@demo.example.com' };

/**
 * The demo commands make an operator and keys whose sign-in lands in a plain file: for development and tests only.
 * Anywhere else (NODE_ENV=production, as the images set it, or any other named environment) they are refused
 * before they touch the database. Answers why, or undefined when they may run.
 */
export function demoRefusal(command: string, nodeEnv: string | undefined): string | undefined {
  // The rule of every development and test setting (DevelopmentOnly: WEBHOOK_ALLOW_PRIVATE_URLS, a plain session cookie).
  if (isDevelopmentOrTest(nodeEnv)) return undefined;
  return `${command} is for development and tests only: refused under NODE_ENV=${nodeEnv!.trim()} (it runs when NODE_ENV is unset, development or test)`;
}

/** What a demo command answers, and the audit entries of what it changed (none when it only read its file back). */
export interface Seeded<T> {
  value: T;
  facts: AdminAuditFact[];
}

/**
 * The demo merchant for `npm start`, created once. Keys are stored only as
 * hashes, so the file is the one copy: when it exists and its merchant is still
 * in the database it is returned as is; when it is lost, the demo merchant gets
 * fresh default keys and a new owner password.
 */
export async function seedDemo(dataSource: DataSource, out: string): Promise<Seeded<ProvisionedMerchantView>> {
  const saved = readSaved(out);
  if (saved && (await new MerchantRepository(dataSource).find(saved.merchant_id))) return { value: saved, facts: [] };
  const provisioning = new MerchantProvisioningService(dataSource);
  const owner = await new DashboardUserRepository(dataSource).findByEmail(DEMO_MERCHANT.email);
  let seeded: Seeded<ProvisionedMerchantView>;
  if (owner) {
    const demo = await provisioning.reissueDefaults(owner.merchant_id, DEMO_MERCHANT.email);
    seeded = { value: demo, facts: await reissuedFacts(dataSource, demo) };
  } else {
    const demo = await provisioning.createMerchant(DEMO_MERCHANT);
    seeded = { value: demo, facts: [merchantCreatedFact(demo, DEMO_MERCHANT.etransfer_email)] };
  }
  writeSaved(out, seeded.value);
  return { value: seeded.value, facts: seeded.facts.map((fact) => byCommand(fact, 'demo:seed')) };
}

/** The demo owner's new password and each of the four new keys (named by redacted form, never the key). */
async function reissuedFacts(dataSource: DataSource, demo: ProvisionedMerchantView): Promise<AdminAuditFact[]> {
  const keys = new ApiKeyRepository(dataSource);
  const facts: AdminAuditFact[] = [
    { action: 'auth.password_changed', target_id: demo.dashboard_user.id, merchant_id: demo.merchant_id, livemode: null, detail: `${demo.dashboard_user.email} (generated)` },
  ];
  for (const key of Object.values(demo.keys)) {
    const stored = await keys.findByHash(hashApiKey(key));
    if (stored) facts.push(apiKeyFact('api_key.created', apiKeyView(stored)));
  }
  return facts;
}

/**
 * The demo platform admin for `npm start` (the dashboard's admin console),
 * created once; like the merchant's keys, its password is only in the file,
 * so a lost file means a new password.
 */
export async function seedDemoPlatformAdmin(dataSource: DataSource, out: string): Promise<Seeded<PlatformAdminView>> {
  const admins = new PlatformAdminRepository(dataSource);
  const existing = await admins.findByEmail(DEMO_PLATFORM_ADMIN_EMAIL);
  const saved = readJson<PlatformAdminView>(out);
  if (existing && saved?.id === existing.id && saved.password) return { value: saved, facts: [] };
  let admin: PlatformAdminView;
  let fact: AdminAuditFact;
  if (existing) {
    const password = generatePassword();
    await admins.setPassword(existing.id, await hashPassword(password));
    admin = { id: existing.id, email: existing.email, password };
    fact = platformAdminPasswordResetFact(admin);
  } else {
    admin = await createPlatformAdmin(dataSource, { email: DEMO_PLATFORM_ADMIN_EMAIL });
    fact = platformAdminCreatedFact(admin);
  }
  writeSaved(out, admin);
  return { value: admin, facts: [byCommand(fact, 'demo:seed-platform-admin')] };
}

/** The entry says which demo command made the change, so the trail tells demo seeding from an operator's action. */
const byCommand = (fact: AdminAuditFact, command: string): AdminAuditFact => ({ ...fact, detail: fact.detail ? `${fact.detail}; by ${command}` : `by ${command}` });

/**
 * Writes the file whole with mode 600, also over a file an earlier write (or its owner) left readable to others:
 * writeFileSync's mode applies only to a file it creates, so a fresh file is written and renamed over the old one,
 * and a reader (or a seed stopped mid-write) sees the old content or the new, never a truncated file.
 */
function writeSaved(out: string, value: unknown): void {
  mkdirSync(dirname(out), { recursive: true, mode: 0o700 });
  const fresh = `${out}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(fresh, JSON.stringify(value, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
    chmodSync(fresh, 0o600); // exactly 600, whatever the umask took off
    renameSync(fresh, out);
  } catch (error) {
    rmSync(fresh, { force: true });
    throw error;
  }
}

function readJson<T>(file: string): T | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined; // unreadable: seed again and overwrite it
  }
}

function readSaved(file: string): ProvisionedMerchantView | undefined {
  const saved = readJson<ProvisionedMerchantView>(file);
  return typeof saved?.merchant_id === 'string' && saved.keys ? saved : undefined;
}
