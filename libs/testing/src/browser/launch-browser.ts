import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, chromium as Chromium } from 'playwright-core';

/** Debian's Chromium (the test set-up installs it); playwright-core drives it, no downloaded browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface TestBrowser {
  /** A context of the fresh profile; options as Playwright's (permissions, viewport, locale, ...). */
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Real headless Chromium for browser tests, with a fresh profile each time
 * (a new --user-data-dir, deleted on close) and no background traffic.
 */
export async function launchBrowser(options: Parameters<typeof Chromium.launchPersistentContext>[1] = {}): Promise<TestBrowser> {
  // Loaded on first use: playwright-core is a few large files that every spec importing @pp/testing would compile.
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'pp-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    ...options,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
