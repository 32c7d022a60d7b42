import { setTimeout as sleep } from 'node:timers/promises';
import { TestStack } from '@pp/testing';
import { DashboardBrowser, GatewayApi, type ProvisionedMerchant, signInAsNewUser } from '../testing/dashboard-client';
import { TOO_MANY_REQUESTS } from './user-request.budget';

/*
 * A signed-in user's requests per second (UserRequestBudget, docs/ARCHITECTURE.md
 * "Dashboard"), over the real dashboard and Redis: past it a request is
 * answered 429 with Retry-After, the budget is the user's across every
 * session of theirs, other users keep theirs, and sign-out is never refused.
 */
const PER_SECOND = 2;

describe('a signed-in user’s request budget', () => {
  let stack: TestStack;
  let gateway: GatewayApi;
  let merchant: ProvisionedMerchant;

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['gateway', 'dashboard'],
      label: 'dashboard-user-budget',
      env: { DASHBOARD_SECURE_COOKIE: 'false', DASHBOARD_LOGINS_PER_ADDRESS: '1000', DASHBOARD_REQUESTS_PER_USER_PER_SECOND: String(PER_SECOND) },
    });
    gateway = new GatewayApi(stack);
    merchant = await gateway.createMerchant('Budgeted Shop');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function signedIn(): Promise<DashboardBrowser> {
    const browser = new DashboardBrowser(stack.url('dashboard'));
    expect((await browser.login(merchant.dashboard_user.email, merchant.dashboard_user.password)).status).toBe(200);
    return browser;
  }

  /** Waits out the budget's window, so the next burst starts with the whole budget. */
  const nextWindow = () => sleep(1100);

  it('given a burst past the budget, then the excess is answered 429 with Retry-After, and after the wait the user is served again', async () => {
    const browser = await signedIn();
    const answers = await Promise.all(Array.from({ length: 12 }, () => browser.get<{ error?: string }>('/api/auth/session')));

    const refused = answers.filter((answer) => answer.status === 429);
    expect(answers.every((answer) => answer.status === 200 || answer.status === 429)).toBe(true);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]!.body).toEqual({ error: TOO_MANY_REQUESTS });
    const wait = Number(refused[0]!.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);

    await sleep(wait * 1000 + 100);
    expect((await browser.get('/api/auth/session')).status).toBe(200);
  });

  it('given three sessions of one user, then they share one budget: a burst within a second serves at most two windows of it', async () => {
    const sessions = await Promise.all([signedIn(), signedIn(), signedIn()]);
    // One budget per session would serve at least 3 × PER_SECOND of a burst; one per user at most 2 × PER_SECOND
    // (a burst shorter than a second touches at most two windows). A burst that took a second or more proves nothing: again.
    for (let round = 0; round < 3; round += 1) {
      await nextWindow();
      const started = Date.now();
      const answers = await Promise.all(sessions.flatMap((browser) => Array.from({ length: 6 }, () => browser.get('/api/auth/session'))));
      if (Date.now() - started >= 1000) continue;
      expect(answers.filter((answer) => answer.status === 200).length).toBeLessThanOrEqual(2 * PER_SECOND);
      expect(answers.filter((answer) => answer.status === 429).length).toBeGreaterThanOrEqual(answers.length - 2 * PER_SECOND);
      return;
    }
    throw new Error('no burst of 18 requests finished within a second in three rounds');
  });

  it('given one user’s budget spent, then another user of the same merchant is served, and the spent user can still sign out', async () => {
    const [spender, other] = await Promise.all([signedIn(), signInAsNewUser(stack, merchant, 'viewer')]);

    const burst = await Promise.all(Array.from({ length: 12 }, () => spender.get('/api/auth/session')));
    expect(burst.some((answer) => answer.status === 429)).toBe(true);
    const [otherAnswer, signOut] = await Promise.all([other.get('/api/auth/session'), spender.post('/api/auth/logout')]);

    expect(otherAnswer.status).toBe(200);
    expect(signOut.status).toBe(204);
    expect((await spender.get<{ error?: string }>('/api/auth/session')).status).toBe(401);
  });
});
