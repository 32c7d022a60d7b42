/**
 * Where the test infrastructure is. `npm test` (tools/launcher/test.js) makes
 * sure these answer and exports them; the defaults are the local servers.
 */
export const testInfra = {
  postgresAdminUrl: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  natsUrl: process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222',
  redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
};
