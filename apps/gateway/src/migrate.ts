import { runMigrate } from '@pp/platform/typeorm';
import { GatewayDatabase } from './database/gateway.database';

/** Migrates schema gateway and applies its role's grants, as the owner (MIGRATION_DATABASE_URL); run before the service. */
runMigrate(GatewayDatabase);
