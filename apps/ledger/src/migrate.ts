import { runMigrate } from '@pp/platform/typeorm';
import { LedgerDatabase } from './database/ledger.database';

/** Migrates schema ledger and applies its role's grants, as the owner (MIGRATION_DATABASE_URL); run before the service. */
runMigrate(LedgerDatabase);
