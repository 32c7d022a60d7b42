import { isUniqueViolation, violatedUniqueConstraint } from './pg-errors';

const pgError = (code: string, constraint?: string) => Object.assign(new Error('failed'), { code, constraint });

describe('Postgres errors', () => {
  it('given a unique violation, thrown as it is or wrapped by TypeORM, when read, then it names its constraint', () => {
    expect(violatedUniqueConstraint(pgError('23505', 'emails_pkey'))).toBe('emails_pkey');
    expect(violatedUniqueConstraint({ driverError: pgError('23505', 'emails_pkey') })).toBe('emails_pkey');
    expect(isUniqueViolation({ driverError: pgError('23505') })).toBe(true);
  });

  it('given another failure, when read, then it is no unique violation', () => {
    expect(violatedUniqueConstraint(pgError('23503', 'emails_fkey'))).toBeUndefined();
    expect(isUniqueViolation(new Error('connection lost'))).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
  });
});
