import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { selectsBrowserSpecs } = require('./browser-specs') as { selectsBrowserSpecs: (root: string, jestArgs: string[]) => boolean };

const root = join(__dirname, '..', '..');

describe('whether npm test needs Chromium', () => {
  it('given no arguments (every spec), then it does', () => {
    expect(selectsBrowserSpecs(root, [])).toBe(true);
  });

  it('given paths that hold no browser spec, then it does not', () => {
    expect(selectsBrowserSpecs(root, ['apps/sessions'])).toBe(false);
    expect(selectsBrowserSpecs(root, ['libs/kernel', 'apps/ledger/src/event-store'])).toBe(false);
  });

  it('given a path or pattern that holds one (the checkout pages, the dashboard), then it does', () => {
    expect(selectsBrowserSpecs(root, ['apps/checkout'])).toBe(true);
    expect(selectsBrowserSpecs(root, ['apps/sessions', 'dashboard-pages'])).toBe(true);
    expect(selectsBrowserSpecs(root, ['e2e\\.spec'])).toBe(true);
    // As Jest 30 reads a pattern: against the path from the root, ignoring case.
    expect(selectsBrowserSpecs(root, ['^apps/dashboard'])).toBe(true);
    expect(selectsBrowserSpecs(root, ['Dashboard'])).toBe(true);
    expect(selectsBrowserSpecs(root, ['^apps/sessions'])).toBe(false);
  });

  it('given any option (a test name, a path pattern option), then it is taken to', () => {
    expect(selectsBrowserSpecs(root, ['apps/sessions', '-t', 'expiry'])).toBe(true);
  });
});
