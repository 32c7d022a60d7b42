import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BaseConfig } from './config-schemas';
import { loadConfig } from './load-config';

const problems = (env: Record<string, string>) => {
  try {
    loadConfig(BaseConfig, env);
    return [];
  } catch (error) {
    return (error as { problems: string[] }).problems;
  }
};

describe('the bus identity a service connects with (NATS_URL user or NATS_CREDS)', () => {
  const creds = join(mkdtempSync(join(tmpdir(), 'creds-')), 'ledger.creds');
  writeFileSync(creds, '-----BEGIN NATS USER JWT-----\n');

  it('given a user and password in NATS_URL, then the config is valid', () => {
    expect(problems({ NATS_URL: 'nats://ledger:p6c1e9a4f0b7d2e5a8c3f6b9d2e7a1c4@127.0.0.1:4222' })).toEqual([]);
  });

  it('given a credentials file and a URL without a user, then the config is valid', () => {
    expect(problems({ NATS_URL: 'nats://127.0.0.1:4222', NATS_CREDS: creds })).toEqual([]);
  });

  it('given neither, then it names the missing identity (anonymous connections are refused)', () => {
    expect(problems({ NATS_URL: 'nats://127.0.0.1:4222' })).toEqual([
      'NATS_CREDS is required (or a user in NATS_URL (nats://<service>:<password>@host:port): the bus refuses anonymous connections)',
    ]);
  });

  it('given both, or a credentials file that does not exist, then it says which', () => {
    expect(problems({ NATS_URL: 'nats://ledger:p6c1e9a4f0b7d2e5a8c3f6b9d2e7a1c4@127.0.0.1:4222', NATS_CREDS: creds })).toEqual([
      'NATS_CREDS is invalid: set either NATS_CREDS or a user in NATS_URL, not both',
    ]);
    expect(problems({ NATS_URL: 'nats://127.0.0.1:4222', NATS_CREDS: '/nonexistent.creds' })).toEqual([
      'NATS_CREDS is invalid: must name a readable NATS credentials file',
    ]);
  });

  it('given no NATS_URL at all, then only NATS_URL is reported', () => {
    expect(problems({})).toEqual(['NATS_URL is required (must be a nats:// URL, e.g. nats://127.0.0.1:4222)']);
  });
});
