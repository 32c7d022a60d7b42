/** Every migration of the ledger schema, oldest first. */
export const LedgerMigrations: Function[] = [];
