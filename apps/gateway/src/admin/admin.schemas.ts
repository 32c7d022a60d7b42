import { DASHBOARD_ROLES } from '@pp/contracts';
import type { ApiKeyView, DashboardUserView, IssuedApiKeyView, MerchantView, MerchantWithKeysView, ProvisionedMerchantView } from '../identity/identity.views';
import type { ResetDashboardUserView } from '../identity/dashboard-user-password.service';
import type { PlatformAdminListing, PlatformAdminView } from '../identity/platform-admin.service';
import { SCOPES } from '../identity/scopes';
import { DATE_TIME, listSchema, NULLABLE_DATE_TIME, type ViewProperties, viewSchema } from '../openapi/view-schema';

/** Answer shapes of the admin routes (identity.views.ts has the types). */
const API_KEY_PROPERTIES: ViewProperties<ApiKeyView> = {
  id: { type: 'string', example: 'key_x1y2z3' },
  merchant_id: { type: 'string' },
  type: { type: 'string', enum: ['secret', 'restricted', 'publishable'] },
  livemode: { type: 'boolean' },
  redacted: { type: 'string', example: 'pp_live_…a1B2' },
  scopes: { type: 'array', items: { type: 'string', enum: [...SCOPES] } },
  rate_limit_per_second: { type: 'integer', nullable: true },
  expires_at: NULLABLE_DATE_TIME,
  revoked_at: NULLABLE_DATE_TIME,
  created_at: DATE_TIME,
  last_used_at: { ...NULLABLE_DATE_TIME, description: 'When the key last authenticated a request, to the minute' },
};

export const API_KEY_SCHEMA = viewSchema<ApiKeyView>(API_KEY_PROPERTIES);

export const ISSUED_API_KEY_SCHEMA = viewSchema<IssuedApiKeyView>({
  ...API_KEY_PROPERTIES,
  key: { type: 'string', description: 'The key itself, shown only in this response' },
});

const MERCHANT_PROPERTIES: ViewProperties<MerchantView> = {
  id: { type: 'string', example: 'mer_x1y2z3' },
  name: { type: 'string' },
  email: { type: 'string', format: 'email' },
  etransfer_email: { type: 'string', format: 'email', nullable: true },
  frame_ancestors: { type: 'array', items: { type: 'string', example: 'https://shop.example.com' }, description: 'Origins allowed to frame the embedded checkout' },
  created_at: DATE_TIME,
  updated_at: DATE_TIME,
};

export const MERCHANT_SCHEMA = viewSchema<MerchantView>(MERCHANT_PROPERTIES);

const LISTED_DASHBOARD_USER_SCHEMA = viewSchema<MerchantWithKeysView['users'][number]>({
  id: { type: 'string', example: 'usr_x1y2z3' },
  email: { type: 'string', format: 'email' },
  role: { type: 'string', enum: DASHBOARD_ROLES },
});

export const MERCHANT_WITH_KEYS_SCHEMA = viewSchema<MerchantWithKeysView>({
  ...MERCHANT_PROPERTIES,
  keys: { type: 'array', items: API_KEY_SCHEMA },
  users: { type: 'array', items: LISTED_DASHBOARD_USER_SCHEMA, description: 'Its dashboard users, oldest first (POST …/users/:user_id/password sets one’s password)' },
});

const KEYS_SCHEMA = viewSchema<ProvisionedMerchantView['keys']>(
  {
    live_secret: { type: 'string', example: 'pp_live_…' },
    test_secret: { type: 'string', example: 'pp_live_test_…' },
    live_publishable: { type: 'string', example: 'pp_pub_…' },
    test_publishable: { type: 'string', example: 'pp_pub_test_…' },
  },
  'Shown only in this response',
);

const DASHBOARD_USER_SCHEMA = viewSchema<DashboardUserView>({
  id: { type: 'string' },
  email: { type: 'string', format: 'email' },
  role: { type: 'string', enum: DASHBOARD_ROLES },
  password: { type: 'string', description: 'Present only when generated; shown once', optional: true },
});

export const PROVISIONED_MERCHANT_SCHEMA = viewSchema<ProvisionedMerchantView>({
  merchant_id: { type: 'string' },
  keys: KEYS_SCHEMA,
  dashboard_user: DASHBOARD_USER_SCHEMA,
});

export const PLATFORM_ADMIN_SCHEMA = viewSchema<PlatformAdminView>({
  id: { type: 'string' },
  email: { type: 'string', format: 'email' },
  password: { type: 'string', description: 'Only when generated; shown once', optional: true },
});

export const RESET_DASHBOARD_USER_SCHEMA = viewSchema<ResetDashboardUserView>({
  id: { type: 'string', example: 'usr_x1y2z3' },
  merchant_id: { type: 'string' },
  email: { type: 'string', format: 'email' },
  role: { type: 'string', enum: DASHBOARD_ROLES },
  password: { type: 'string', description: 'Only when generated; shown once', optional: true },
});

export const PLATFORM_ADMIN_LISTING_SCHEMA = viewSchema<PlatformAdminListing>({
  id: { type: 'string', example: 'usr_x1y2z3' },
  email: { type: 'string', format: 'email' },
  created_at: DATE_TIME,
  removed_at: { ...DATE_TIME, description: 'Only in the answer to its removal', optional: true },
});

export const PLATFORM_ADMIN_LIST_SCHEMA = listSchema(PLATFORM_ADMIN_LISTING_SCHEMA);
