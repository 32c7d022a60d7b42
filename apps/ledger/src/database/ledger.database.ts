import type { ServiceDatabase } from '@pp/platform';
import { LedgerGrants } from './ledger.grants';
import { LedgerMigrations } from './migrations';

/** The event store and read models: schema, migrations and the ledger role's grants. */
export const LedgerDatabase: ServiceDatabase = { service: 'ledger', schema: 'ledger', migrations: LedgerMigrations, grants: LedgerGrants };
