import type { DashboardRole } from '@pp/contracts';
import { toIso } from '@pp/kernel';
import type { KeyType } from './api-key';
import type { ApiKeyRecord } from './api-key.repository';
import type { MerchantRecord } from './merchant.repository';
import type { Scope } from './scopes';

/** A key as listings show it: never the key itself. */
export interface ApiKeyView {
  id: string;
  merchant_id: string;
  type: KeyType;
  livemode: boolean;
  redacted: string;
  scopes: Scope[];
  rate_limit_per_second: number | null;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
  /** When the key last authenticated a request, to the minute; null if never. */
  last_used_at: string | null;
}

/** A key at creation: the only time the key itself is shown. */
export interface IssuedApiKeyView extends ApiKeyView {
  key: string;
}

export interface MerchantView {
  id: string;
  name: string;
  email: string;
  etransfer_email: string | null;
  frame_ancestors: string[];
  created_at: string;
  updated_at: string;
}

export interface DashboardUserView {
  id: string;
  email: string;
  role: DashboardRole;
  /** Present only when the service generated the password; shown once. */
  password?: string;
}

/** GET /v1/admin/merchants/:id: the merchant, its keys (redacted) and its dashboard users (never a password). */
export interface MerchantWithKeysView extends MerchantView {
  keys: ApiKeyView[];
  users: Omit<DashboardUserView, 'password'>[];
}

/** 201 body of POST /v1/admin/merchants (PRODUCT-RULES §D4); the keys are shown once. */
export interface ProvisionedMerchantView {
  merchant_id: string;
  keys: { live_secret: string; test_secret: string; live_publishable: string; test_publishable: string };
  dashboard_user: DashboardUserView;
}

const isoOrNull = (date: Date | null): string | null => (date ? toIso(date) : null);

export const apiKeyView = (record: ApiKeyRecord): ApiKeyView => ({
  id: record.id,
  merchant_id: record.merchant_id,
  type: record.type,
  livemode: record.livemode,
  redacted: record.redacted,
  scopes: record.scopes,
  rate_limit_per_second: record.rate_limit_per_second,
  expires_at: isoOrNull(record.expires_at),
  revoked_at: isoOrNull(record.revoked_at),
  created_at: toIso(record.created_at),
  last_used_at: isoOrNull(record.last_used_at),
});

export const merchantView = (record: MerchantRecord): MerchantView => ({
  id: record.id,
  name: record.name,
  email: record.email,
  etransfer_email: record.etransfer_email,
  frame_ancestors: record.frame_ancestors,
  created_at: toIso(record.created_at),
  updated_at: toIso(record.updated_at),
});
