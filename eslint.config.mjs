import nx from '@nx/eslint-plugin';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Lint exists mainly to enforce the architecture (docs/ARCHITECTURE.md):
 * - apps may import libs, never each other; libs never import apps; contracts
 *   and kernel depend on nothing of ours but each other (tags in each project.json);
 * - deciders and policy modules are pure: no Nest, platform, storage, bus or I/O;
 * - production code never imports the test harness;
 * - no `any`: real types, `unknown` with narrowing, or generics.
 * tools/, deploy/ and the browser scripts are linted too (`npm run lint`).
 */

/** What a pure module (`*.decider.ts`, `*.policy.ts`) may not import: frameworks, infrastructure and I/O. */
const IMPURE_MODULES = [
  { group: ['@nestjs/*'], message: 'Deciders and policies are pure functions: no Nest. Keep Nest in the handler that calls them.' },
  ...['@pp/platform', 'pg', 'typeorm', 'nats', 'ioredis', 'bullmq'].map((name) => ({
    group: [name, `${name}/*`],
    message: `Deciders and policies are pure functions: no ${name}. Load and store in the handler or repository that calls them.`,
  })),
  ...['fs', 'fs/promises', 'net', 'dns', 'http', 'https', 'http2', 'tls', 'dgram', 'child_process', 'cluster', 'worker_threads', 'os', 'readline'].map(
    (name) => ({
      group: [name, `node:${name}`],
      message: 'Deciders and policies are pure functions: no I/O. Pass in what they need to decide (time, data) from the caller.',
    }),
  ),
];

const TESTING_HARNESS = {
  group: ['@pp/testing', '@pp/testing/*'],
  message: '@pp/testing is test support: only specs, libs/testing, test helpers under testing/ folders and tools/ may import it.',
};

/** Who may import whom (docs/ARCHITECTURE.md). */
const DEP_CONSTRAINTS = [
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
  { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib', 'type:app'] },
  { sourceTag: 'scope:testing', onlyDependOnLibsWithTags: ['scope:platform', 'scope:contracts', 'scope:kernel', 'scope:sdk'] },
  { sourceTag: 'scope:platform', onlyDependOnLibsWithTags: ['scope:contracts', 'scope:kernel', 'scope:sdk'] },
  { sourceTag: 'scope:contracts', onlyDependOnLibsWithTags: ['scope:kernel', 'scope:sdk'] },
  { sourceTag: 'scope:kernel', onlyDependOnLibsWithTags: [] },
];

export default [
  { ignores: ['**/dist', '**/node_modules', '**/tmp', '**/.dev', '**/coverage', 'bench/reports'] },
  ...tseslint.configs.recommended,
  {
    // A rest sibling drops a property on purpose (`const { service, ...rest } = entry`).
    rules: { '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }] },
  },
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': ['error', { allow: [], depConstraints: DEP_CONSTRAINTS }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unsafe-function-type': 'off',
      '@typescript-eslint/no-empty-object-type': 'off',
      // Production code: no test harness.
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [TESTING_HARNESS] }],
    },
  },
  {
    // The published SDK runs on Node alone and imports nothing of ours; its specs check it against the
    // contracts and run it against the real stack, so they may use both.
    files: ['libs/sdk/**/*.ts'],
    ignores: ['libs/sdk/**/*.spec.ts'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', { allow: [], depConstraints: [{ sourceTag: 'scope:sdk', onlyDependOnLibsWithTags: [] }, ...DEP_CONSTRAINTS] }],
    },
  },
  {
    files: ['libs/sdk/**/*.spec.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        { allow: [], depConstraints: [{ sourceTag: 'scope:sdk', onlyDependOnLibsWithTags: ['scope:contracts', 'scope:testing', 'scope:platform', 'scope:kernel'] }, ...DEP_CONSTRAINTS] },
      ],
    },
  },
  {
    // Test code and tools may use the harness.
    files: ['**/*.spec.ts', 'libs/testing/**/*.ts', 'apps/*/src/testing/**/*.ts', 'tools/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': 'off' },
  },
  {
    // Pure modules: the rule applies to the module itself (its specs run real code and are not restricted).
    files: ['**/*.decider.ts', '**/*.policy.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [TESTING_HARNESS, ...IMPURE_MODULES] }] },
  },
  {
    // The dashboard's permission table is also bundled into its web app (web/src/permissions.ts): types alone from
    // the contracts, or Vite would carry their values (and class-validator) into the browser.
    files: ['apps/dashboard/src/auth/dashboard-permissions.policy.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            TESTING_HARNESS,
            ...IMPURE_MODULES,
            { group: ['@pp/*'], allowTypeImports: true, message: 'The web app bundles this module: import types only, or its values reach the browser.' },
          ],
        },
      ],
    },
  },
  {
    // Launcher, build and Jest set-up: CommonJS scripts run by Node.
    files: ['tools/**/*.js', 'jest.config.js'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Scripts the checkout app serves to payers' browsers.
    files: ['apps/checkout/src/browser/**/*.js'],
    languageOptions: { sourceType: 'script', globals: globals.browser },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    rules: { 'no-undef': 'error' },
  },
];
