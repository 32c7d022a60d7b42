import { runMigrate } from '@pp/platform/typeorm';
import { IngestDatabase } from './database/ingest.database';

/** Migrates schema ingest and applies its role's grants, as the owner (MIGRATION_DATABASE_URL); run before the service. */
runMigrate(IngestDatabase);
