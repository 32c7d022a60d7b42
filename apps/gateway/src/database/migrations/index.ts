import { IdentityTables1760000000000 } from './identity-tables.migration';

/** Every migration of the gateway schema, oldest first. */
export const GatewayMigrations: Function[] = [IdentityTables1760000000000];
