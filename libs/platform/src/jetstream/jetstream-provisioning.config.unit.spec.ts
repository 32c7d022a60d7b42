import { INGEST_RAW_EMAIL_MAX_MSG_SIZE } from '@pp/contracts';
import { ConfigError, loadConfig } from '../config/load-config';
import { JetStreamProvisioningConfig, layoutSettingsOf, MIN_RAW_EMAIL_STORE_BYTES } from './jetstream-provisioning.config';

const base = { NATS_URL: 'nats://migrate:p0d3b8e1f6a9c2e5b8d1f4a7c0e3b6d9@127.0.0.1:4222' };
const problems = (env: Record<string, string>) => {
  try {
    loadConfig(JetStreamProvisioningConfig, { ...base, ...env });
    return [];
  } catch (error) {
    return error instanceof ConfigError ? error.problems : [String(error)];
  }
};

describe('the migrate step’s JetStream settings', () => {
  it('lays out one copy of each stream by default, and up to five', () => {
    expect(layoutSettingsOf(loadConfig(JetStreamProvisioningConfig, base))).toEqual({
      namespace: '',
      replicas: 1,
      ingestStreamMaxBytes: 1024 ** 3,
      ingestBucketMaxBytes: 1024 ** 3,
    });
    expect(loadConfig(JetStreamProvisioningConfig, { ...base, JETSTREAM_REPLICAS: '3', PP_NAMESPACE: 'staging' })).toMatchObject({ JETSTREAM_REPLICAS: 3, PP_NAMESPACE: 'staging' });
    expect(problems({ JETSTREAM_REPLICAS: '6' })).toEqual([expect.stringMatching(/^JETSTREAM_REPLICAS is invalid/)]);
  });

  it.each(['INGEST_STREAM_MAX_BYTES', 'INGEST_BUCKET_MAX_BYTES'])('bounds %s to 1 GiB by default, and takes from room for one largest e-mail to 1 TiB', (name) => {
    expect(loadConfig(JetStreamProvisioningConfig, base)).toMatchObject({ [name]: 1024 ** 3 });
    expect(loadConfig(JetStreamProvisioningConfig, { ...base, [name]: '8388608' })).toMatchObject({ [name]: 8 * 1024 ** 2 });
    expect(problems({ [name]: '1GiB' })).toEqual([expect.stringMatching(new RegExp(`^${name} is invalid: .*must be a whole number of bytes`))]);
    expect(problems({ [name]: '5242880' })).toEqual([expect.stringMatching(new RegExp(`^${name} is invalid: must be at least 8388608 \\(bytes, 8 MiB\\): one e-mail of the largest size must fit$`))]);
    expect(problems({ [name]: String(1024 ** 4 + 1) })).toEqual([expect.stringMatching(new RegExp(`^${name} is invalid: must be at most 1099511627776`))]);
  });

  it('leaves room in the smallest byte limit for the largest message the raw e-mail stream takes', () => {
    expect(MIN_RAW_EMAIL_STORE_BYTES).toBeGreaterThanOrEqual(INGEST_RAW_EMAIL_MAX_MSG_SIZE);
  });
});
