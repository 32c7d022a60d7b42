/** The parts of a node-postgres error a caller looks at. */
interface PgError {
  code?: string;
  constraint?: string;
}

/** node-postgres's error, whether thrown as it is or wrapped by TypeORM as `driverError`. */
function pgErrorOf(error: unknown): PgError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  return ((error as { driverError?: PgError }).driverError ?? error) as PgError;
}

/** Whether a statement failed on a unique constraint (SQLSTATE 23505). */
export const isUniqueViolation = (error: unknown): boolean => pgErrorOf(error)?.code === '23505';

/** The unique constraint a statement violated, if that is what failed. */
export const violatedUniqueConstraint = (error: unknown): string | undefined => (isUniqueViolation(error) ? pgErrorOf(error)?.constraint : undefined);
