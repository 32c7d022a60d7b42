/** The parts of a node-postgres error the ledger looks at. */
interface PgError {
  code?: string;
  constraint?: string;
}

/** The unique constraint a statement violated (SQLSTATE 23505), if that is what failed. */
export function violatedUniqueConstraint(error: unknown): string | undefined {
  const pg = error as PgError;
  return typeof error === 'object' && error !== null && pg.code === '23505' ? pg.constraint : undefined;
}
