import { DomainError, ErrorCode, MEMO_TAKEN_RULE } from '@pp/contracts';
import { MEMO_ATTEMPTS, withFreshMemo } from './fresh-memo';

const memoTaken = () => new DomainError(ErrorCode.Conflict, 'Memo already in use', { rule: MEMO_TAKEN_RULE });

/** An append that the ledger refuses `taken` times for its memo, then accepts. */
const appendTaken = (taken: number) => {
  let calls = 0;
  const append = async () => {
    calls += 1;
    if (calls <= taken) throw memoTaken();
    return `session after ${calls} draws`;
  };
  return { append, calls: () => calls };
};

describe('a new session’s memo', () => {
  it('given a free first memo, when appended: once', async () => {
    const ledger = appendTaken(0);
    await expect(withFreshMemo(ledger.append)).resolves.toBe('session after 1 draws');
    expect(ledger.calls()).toBe(1);
  });

  it('given memos already taken, when appended: drawn again until one is free', async () => {
    const ledger = appendTaken(MEMO_ATTEMPTS - 1);
    await expect(withFreshMemo(ledger.append)).resolves.toBe(`session after ${MEMO_ATTEMPTS} draws`);
  });

  it('given every draw taken, when appended: 503 after the last, never the 409 of a used reference', async () => {
    const ledger = appendTaken(Number.POSITIVE_INFINITY);
    await expect(withFreshMemo(ledger.append)).rejects.toMatchObject({ code: ErrorCode.ServiceUnavailable });
    expect(ledger.calls()).toBe(MEMO_ATTEMPTS);
  });

  it('given another refusal (a reference already used), when appended: answered at once', async () => {
    const referenceTaken = new DomainError(ErrorCode.Conflict, 'Reference already used', { rule: 'reference_taken' });
    let calls = 0;
    await expect(withFreshMemo(async () => (calls++, Promise.reject(referenceTaken)))).rejects.toBe(referenceTaken);
    expect(calls).toBe(1);
  });
});
