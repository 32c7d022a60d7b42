/**
 * One Jest run for every tier. Tiers are named by suffix:
 *   *.unit.spec.ts  pure logic, no I/O
 *   *.int.spec.ts   real Postgres / NATS / Redis, services booted by libs/testing
 *   *.e2e.spec.ts   whole stack as processes, or a real browser
 * `npm test` runs all of them after setting up infrastructure (tools/launcher/test.js).
 */
const swcrc = require('./.swcrc.json');

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools', '<rootDir>/deploy', '<rootDir>/examples'],
  testMatch: ['**/*.spec.ts'],
  // cuid2 v3 ships only as an ES module; compile it (and its hashing dependency) to CommonJS like our own code.
  transform: {
    '^.+\\.(t|j)s$': ['@swc/jest', { ...swcrc, swcrc: false, exclude: [], sourceMaps: 'inline', module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(@paralleldrive/cuid2|@noble/hashes)/)'],
  moduleNameMapper: {
    '^@pp/(contracts|kernel|platform|sdk|testing)$': '<rootDir>/libs/$1/src/index.ts',
    '^@pp/platform/(boot|config|memory|typeorm)$': '<rootDir>/libs/platform/src/$1/index.ts',
    '^@interac-checkout/node$': '<rootDir>/libs/sdk/src/index.ts',
  },
  testTimeout: 60_000,
  maxWorkers: 2,
  globalSetup: '<rootDir>/tools/build/jest-global-setup.js',
  globalTeardown: '<rootDir>/tools/build/jest-global-teardown.js',
};
