import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, type TestBrowser } from '@pp/testing';
import type { Page } from 'playwright-core';

/** Where every browser spec of the dashboard puts its screenshots. */
export const ARTIFACTS = join(REPO_ROOT, 'artifacts', 'dashboard');

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** A page's text with the no-break spaces of French and CAD formatting made plain. */
export const text = async (page: Page, selector: string) => ((await page.textContent(selector)) ?? '').replace(/[\u00a0\u202f]/g, ' ').trim();

/** A new page signed in through the sign-in form. */
export async function signIn(browser: TestBrowser, dashboardUrl: string, email: string, password: string): Promise<Page> {
  const page = await browser.context.newPage();
  await page.context().clearCookies();
  await page.goto(dashboardUrl);
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', password);
  await page.click('button[type=submit]');
  await page.waitForSelector('header nav');
  return page;
}

/** A full-page screenshot to artifacts/dashboard/<name>.png, then axe-core must find no violation. */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate('axe.run().then((result) => result.violations.map(({ id, impact, help }) => ({ id, impact, help })))')) as unknown[];
  expect(violations).toEqual([]);
}
