import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DataSource } from 'typeorm';
import { DashboardUserRepository } from '../identity/dashboard-user.repository';
import type { ProvisionedMerchantView } from '../identity/identity.views';
import { MerchantRepository } from '../identity/merchant.repository';
import { MerchantProvisioningService } from '../identity/merchant-provisioning.service';

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
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(demo, null, 2) + '\n', { mode: 0o600 });
  return demo;
}

function readSaved(file: string): ProvisionedMerchantView | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as ProvisionedMerchantView;
    return typeof saved?.merchant_id === 'string' && saved.keys ? saved : undefined;
  } catch {
    return undefined; // unreadable: seed again and overwrite it
  }
}
