import { runMigrate } from '@pp/platform/typeorm';
import { WebhooksDatabase } from './database/webhooks.database';

/** Migrates schema webhooks and applies its role's grants, as the owner (MIGRATION_DATABASE_URL); run before the service. */
runMigrate(WebhooksDatabase);
