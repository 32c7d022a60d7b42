import type { ServiceDatabase } from '@pp/platform';
import { GatewayGrants } from './gateway.grants';
import { GatewayMigrations } from './migrations';

/** The gateway's identity tables: schema, migrations and its role's grants. */
export const GatewayDatabase: ServiceDatabase = { service: 'gateway', schema: 'gateway', migrations: GatewayMigrations, grants: GatewayGrants };
