import type { ServiceDatabase } from '@pp/platform';
import { IngestGrants } from './ingest.grants';
import { IngestMigrations } from './migrations';

/** The e-mail evidence: schema, migrations and the ingest role's grants. */
export const IngestDatabase: ServiceDatabase = { service: 'ingest', schema: 'ingest', migrations: IngestMigrations, grants: IngestGrants };
