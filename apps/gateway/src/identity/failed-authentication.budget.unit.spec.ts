import type { GatewayConfig } from '../gateway.config';
import { ApiError } from '../http/api-error';
import { FailedAuthenticationBudget, TOO_MANY_FAILED_ATTEMPTS } from './failed-authentication.budget';

const BUDGET = 2;
const PRINCIPAL = { key_id: 'key_1' };

const newBudget = () => new FailedAuthenticationBudget({ GATEWAY_FAILED_AUTH_PER_ADDRESS_PER_MINUTE: BUDGET } as GatewayConfig);

/** A lookup that counts its runs and finds `outcome`. */
function lookup(outcome: 'unknown' | 'found' | 'database down') {
  const run = jest.fn(async () => {
    if (outcome === 'database down') throw new Error('connection refused');
    return outcome === 'found' ? PRINCIPAL : undefined;
  });
  return run;
}

let guesses = 0;
/** A key never presented before (as a guesser's are). */
const guess = () => `guess-${++guesses}`;

async function refusalOf(attempt: Promise<unknown>): Promise<ApiError> {
  const error = await attempt.then(() => undefined, (thrown: unknown) => thrown);
  if (!(error instanceof ApiError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

/** Spends `address`'s whole budget on unknown keys. */
async function spend(budget: FailedAuthenticationBudget, address: string): Promise<void> {
  for (let i = 0; i < BUDGET; i++) expect(await budget.attempt(address, guess(), lookup('unknown'))).toBeUndefined();
}

describe('FailedAuthenticationBudget', () => {
  afterEach(() => jest.useRealTimers());

  it('given an address that spent its budget on unknown keys, when it presents another, then 429 with Retry-After and no lookup', async () => {
    const budget = newBudget();
    await spend(budget, '203.0.113.7');

    const next = lookup('found');
    const refusal = await refusalOf(budget.attempt('203.0.113.7', guess(), next));

    expect(refusal).toMatchObject({ status: 429, message: TOO_MANY_FAILED_ATTEMPTS });
    expect(Number(refusal.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    expect(Number(refusal.headers['Retry-After'])).toBeLessThanOrEqual(60);
    expect(next).not.toHaveBeenCalled();
  });

  it('given a spent address, when another address (or another /64) presents a key, then it is looked up', async () => {
    const budget = newBudget();
    await spend(budget, '2001:db8:1:2::1');

    await expect(refusalOf(budget.attempt('2001:db8:1:2::ffff', guess(), lookup('unknown')))).resolves.toMatchObject({ status: 429 });
    expect(await budget.attempt('2001:db8:1:3::1', guess(), lookup('found'))).toBe(PRINCIPAL);
    expect(await budget.attempt('203.0.113.8', guess(), lookup('found'))).toBe(PRINCIPAL);
  });

  it('given a key found before, when its address has spent its budget on guesses since, then it is still looked up', async () => {
    const budget = newBudget();
    const merchantKey = guess();
    expect(await budget.attempt('198.51.100.1', merchantKey, lookup('found'))).toBe(PRINCIPAL);
    await spend(budget, '198.51.100.1');

    const again = lookup('found');
    expect(await budget.attempt('198.51.100.1', merchantKey, again)).toBe(PRINCIPAL);
    expect(again).toHaveBeenCalledTimes(1);
  });

  it('given a key remembered as found (in use lately, read at the start), when its spent address presents it, then it is looked up and known', async () => {
    const budget = newBudget();
    const merchantKey = guess();
    budget.rememberFound(merchantKey);
    await spend(budget, '198.51.100.2');

    const first = lookup('found');
    expect(await budget.attempt('198.51.100.2', merchantKey, first)).toBe(PRINCIPAL);
    expect(first).toHaveBeenCalledTimes(1);
    expect(budget.hasFound(merchantKey)).toBe(true);
    expect(budget.hasFound(guess())).toBe(false);
  });

  it('given more keys that authenticate than the budget, when the address then fails, then it still has its whole budget', async () => {
    const budget = newBudget();
    for (let i = 0; i < 3 * BUDGET; i++) expect(await budget.attempt('203.0.113.9', guess(), lookup('found'))).toBe(PRINCIPAL);

    await spend(budget, '203.0.113.9');
    await expect(refusalOf(budget.attempt('203.0.113.9', guess(), lookup('unknown')))).resolves.toMatchObject({ status: 429 });
  });

  it('given lookups that fail for the database’s sake, when the address then presents a key, then it was not charged for them', async () => {
    const budget = newBudget();
    for (let i = 0; i < 3 * BUDGET; i++) await expect(budget.attempt('203.0.113.10', guess(), lookup('database down'))).rejects.toThrow('connection refused');

    expect(await budget.attempt('203.0.113.10', guess(), lookup('found'))).toBe(PRINCIPAL);
  });

  it('given many unknown keys at once from one address, when they are looked up, then only the budget’s worth run', async () => {
    const budget = newBudget();
    const run = lookup('unknown');

    const answers = await Promise.allSettled(Array.from({ length: 5 * BUDGET }, () => budget.attempt('203.0.113.11', guess(), run)));

    expect(run).toHaveBeenCalledTimes(BUDGET);
    expect(answers.filter((answer) => answer.status === 'rejected')).toHaveLength(4 * BUDGET);
  });

  it('given many requests at once with one key not found before (a batch after a restart), when looked up, then they share one lookup and one charge', async () => {
    const budget = newBudget();
    const key = guess();
    const run = lookup('found');

    const answers = await Promise.all(Array.from({ length: 5 * BUDGET }, () => budget.attempt('203.0.113.13', key, run)));

    expect(answers.every((answer) => answer === PRINCIPAL)).toBe(true);
    expect(run).toHaveBeenCalledTimes(1);
    await spend(budget, '203.0.113.13');
  });

  it('given a spent address presenting a public key not found before, when another address presents it at that moment, then that one is looked up, not refused with it', async () => {
    const budget = newBudget();
    await spend(budget, '203.0.113.14');
    const key = guess();
    let finish!: () => void;
    const slow = jest.fn(() => new Promise<typeof PRINCIPAL>((resolve) => (finish = () => resolve(PRINCIPAL))));

    const refused = refusalOf(budget.attempt('203.0.113.14', key, slow));
    const payer = budget.attempt('198.51.100.20', key, slow);
    await expect(refused).resolves.toMatchObject({ status: 429 });
    finish();
    expect(await payer).toBe(PRINCIPAL);
    expect(slow).toHaveBeenCalledTimes(1);
  });

  it('given a spent address, when its minute has passed, then its keys are looked up again', async () => {
    jest.useFakeTimers();
    const budget = newBudget();
    await spend(budget, '203.0.113.12');
    await expect(refusalOf(budget.attempt('203.0.113.12', guess(), lookup('unknown')))).resolves.toMatchObject({ status: 429 });

    jest.advanceTimersByTime(60_000);

    expect(await budget.attempt('203.0.113.12', guess(), lookup('found'))).toBe(PRINCIPAL);
  });
});
