import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DataSource } from 'typeorm';
import { DashboardUserRepository } from '../identity/dashboard-user.repository';
import type { ProvisionedMerchantView } from '../identity/identity.views';
import { MerchantRepository } from '../identity/merchant.repository';
import { MerchantProvisioningService } from '../identity/merchant-provisioning.service';
import { generatePassword, hashPassword } from '../identity/password';
import { PlatformAdminRepository } from '../identity/platform-admin.repository';
import { createPlatformAdmin, type PlatformAdminView } from '../identity/platform-admin.service';

export const DEMO_PLATFORM_ADMIN_EMAIL = 'ops@demo.example.com';

export const DEMO_MERCHANT = { name: 'Demo Merchant', email: 'demo@example.com', etransfer_email: 'payments@demo.example.com' };

/**
 * The demo merchant for `npm start`, created once. Keys are stored only as
 * hashes, so the file is the one copy: when it exists and its merchant is still
 * in the database it is returned as is; when it is lost, the demo merchant gets
 * fresh default keys and a new owner password.
 */
export async function seedDemo(dataSource: DataSource, out: string): Promise<ProvisionedMerchantView> {
  const saved = readSaved(out);
  if (saved && (await new MerchantRepository(dataSource).find(saved.merchant_id))) return saved;
  const provisioning = new MerchantProvisioningService(dataSource);
  const owner = await new DashboardUserRepository(dataSource).findByEmail(DEMO_MERCHANT.email);
  const demo = owner
    ? await provisioning.reissueDefaults(owner.merchant_id, DEMO_MERCHANT.email)
    : await provisioning.createMerchant(DEMO_MERCHANT);
  writeSaved(out, demo);
  return demo;
}

/**
 * The demo platform admin for `npm start` (the dashboard's admin console),
 * created once; like the merchant's keys, its password is only in the file,
 * so a lost file means a new password.
 */
export async function seedDemoPlatformAdmin(dataSource: DataSource, out: string): Promise<PlatformAdminView> {
  const admins = new PlatformAdminRepository(dataSource);
  const existing = await admins.findByEmail(DEMO_PLATFORM_ADMIN_EMAIL);
  const saved = readJson<PlatformAdminView>(out);
  if (existing && saved?.id === existing.id && saved.password) return saved;
  let admin: PlatformAdminView;
  if (existing) {
    const password = generatePassword();
    await admins.setPassword(existing.id, await hashPassword(password));
    admin = { id: existing.id, email: existing.email, password };
  } else {
    admin = await createPlatformAdmin(dataSource, { email: DEMO_PLATFORM_ADMIN_EMAIL });
  }
  writeSaved(out, admin);
  return admin;
}

function writeSaved(out: string, value: unknown): void {
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(value, null, 2) + '\n', { mode: 0o600 });
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
