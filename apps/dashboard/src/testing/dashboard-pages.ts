import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '@pp/testing';
import type { BrowserContext, Page, Route } from 'playwright-core';

/** Where the browser tests' screenshots go. */
export const ARTIFACTS = join(REPO_ROOT, 'artifacts', 'dashboard');
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** A page's text with the no-break spaces of French and CAD formatting made plain. */
export const text = async (page: Page, selector: string) => ((await page.textContent(selector)) ?? '').replace(/[\u00a0\u202f]/g, ' ').trim();

/** A screenshot of the page in artifacts/dashboard/<name>.png, then axe-core's violations, which must be none. */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate('axe.run().then((result) => result.violations.map(({ id, impact, help }) => ({ id, impact, help })))')) as unknown[];
  expect(violations).toEqual([]);
}

/** A new page signed in through the sign-in form at `baseUrl` (cookies are per host: two host names keep two users signed in at once). */
export async function signInPage(context: BrowserContext, baseUrl: string, email: string, password: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(baseUrl);
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', password);
  await page.click('button[type=submit]');
  await page.waitForSelector('header nav');
  return page;
}

/** The page's requests to `path` ask for `limit` rows (their query rewritten), so its pager shows without a full page of rows made first. */
export async function smallPages(page: Page, path: string, limit: number): Promise<void> {
  await page.route(
    (url) => url.pathname === path,
    (route) => {
      const url = new URL(route.request().url());
      url.searchParams.set('limit', String(limit));
      return route.continue({ url: url.href });
    },
  );
}

/** Holds the page's requests that `matches` until the returned function lets them go: what the page shows while an answer is on its way. */
export async function holdRequests(page: Page, matches: (url: URL) => boolean): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const held: Promise<void>[] = [];
  const hold = (route: Route) => {
    const sent = released.then(() => route.continue());
    held.push(sent);
    return sent;
  };
  await page.route(matches, hold);
  return async () => {
    release();
    // Sent on before the route goes: removing it continues any request still in its hands, and a second continue fails.
    await Promise.all(held);
    await page.unroute(matches, hold);
  };
}
