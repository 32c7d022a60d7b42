import { ApiKeyLastUsed1767700000000 } from './api-key-last-used.migration';
import { CreationRequests1768000000000 } from './creation-requests.migration';
import { CreationRequestsTeamUsers1768400000000 } from './creation-requests-team-users.migration';
import { CredentialVersion1767800000000 } from './credential-version.migration';
import { DashboardRoles1767500000000 } from './dashboard-roles.migration';
import { IdentityTables1760000000000 } from './identity-tables.migration';
import { MerchantDepositAddressUnique1767400000000 } from './merchant-deposit-address-unique.migration';
import { MerchantFrameAncestors1767300000000 } from './merchant-frame-ancestors.migration';
import { PlatformAdminRemoval1767900000000 } from './platform-admin-removal.migration';
import { TeamAndAudit1767600000000 } from './team-and-audit.migration';

/** Every migration of the gateway schema, oldest first. */
export const GatewayMigrations: Function[] = [IdentityTables1760000000000, MerchantFrameAncestors1767300000000, MerchantDepositAddressUnique1767400000000, DashboardRoles1767500000000, TeamAndAudit1767600000000, ApiKeyLastUsed1767700000000, CredentialVersion1767800000000, PlatformAdminRemoval1767900000000, CreationRequests1768000000000, CreationRequestsTeamUsers1768400000000];
