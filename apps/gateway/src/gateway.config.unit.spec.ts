import { loadConfig } from '@pp/platform';
import { configProblems } from '@pp/testing';
import { GatewayConfig } from './gateway.config';

const base = {
  NATS_URL: 'nats://gateway:p0d3b8e1f6a9c2e5b8d1f4a7c0e3b6d9@127.0.0.1:4222',
  DATABASE_URL: 'postgres://pp_gateway:Xq7Vd2LxR9mKp4TzW8nYc3Hb@127.0.0.1:5432/pp',
  REDIS_URL: 'redis://127.0.0.1:6379',
  ADMIN_TOKEN: 'adm_9c1e4b7a2f5d8e3b6a0c9f2e5b8d1a4c',
  INGEST_TOKEN: 'ing_4f9a1c2e7b3d5a8c6e0f1a2b3c4d5e6f',
  SERVER_SECRET: 'q7Vd2LxR9mKp4TzW8nYc3HbJ6sFg1AeU',
};
const problems = (env: Record<string, string>) => configProblems(GatewayConfig, { ...base, ...env });

describe('gateway configuration', () => {
  it('given no GATEWAY_FAILED_AUTH_PER_ADDRESS_PER_MINUTE, when loaded, then each address may fail 60 times a minute', () => {
    expect(loadConfig(GatewayConfig, base).GATEWAY_FAILED_AUTH_PER_ADDRESS_PER_MINUTE).toBe(60);
    expect(loadConfig(GatewayConfig, { ...base, GATEWAY_FAILED_AUTH_PER_ADDRESS_PER_MINUTE: '5' }).GATEWAY_FAILED_AUTH_PER_ADDRESS_PER_MINUTE).toBe(5);
  });

  it.each(['0', '100001', '2.5', 'sixty'])('given GATEWAY_FAILED_AUTH_PER_ADDRESS_PER_MINUTE=%s, when loaded, then it is refused by name', (value) => {
    expect(problems({ GATEWAY_FAILED_AUTH_PER_ADDRESS_PER_MINUTE: value })).toEqual([expect.stringMatching(/^GATEWAY_FAILED_AUTH_PER_ADDRESS_PER_MINUTE is invalid: /)]);
  });

  it('given NODE_ENV=production and the ingest token equal to the admin token (a copy and paste), when loaded, then it is refused by name: the mail relay would hold the operator\'s power', () => {
    const production = { NODE_ENV: 'production' };
    expect(problems({ ...production, INGEST_TOKEN: base.ADMIN_TOKEN })).toEqual([expect.stringMatching(/^INGEST_TOKEN is invalid: .*must differ from ADMIN_TOKEN and SERVER_SECRET/)]);
    expect(problems({ ...production, SERVER_SECRET: base.ADMIN_TOKEN })).toEqual([expect.stringMatching(/^SERVER_SECRET is invalid: .*must differ from ADMIN_TOKEN/)]);
    expect(problems(production)).toEqual([]);
  });

  it('given a developer\'s machine or a test run, when the tokens are one value, then it starts: a test set-up may share it', () => {
    const environments: Array<Record<string, string>> = [{}, { NODE_ENV: 'development' }, { NODE_ENV: 'test' }];
    for (const nodeEnv of environments) expect(problems({ ...nodeEnv, INGEST_TOKEN: base.ADMIN_TOKEN })).toEqual([]);
  });

  it('given an operator token no Authorization header can carry (a space, past 512 characters), when loaded, then it is refused by name', () => {
    expect(problems({ ADMIN_TOKEN: 'adm 9c1e4b7a2f5d8e3b6a0c9f2e5b8d1a4c' })).toEqual([expect.stringMatching(/^ADMIN_TOKEN is invalid: .*at most 512 characters without spaces/)]);
    expect(problems({ INGEST_TOKEN: `ing_${'4f9a1c2e7b3d5a8c'.repeat(33)}` })).toEqual([expect.stringMatching(/^INGEST_TOKEN is invalid: .*at most 512 characters/)]);
  });
});
