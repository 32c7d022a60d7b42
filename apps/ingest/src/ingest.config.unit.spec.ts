import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@pp/platform';
import { configProblems } from '@pp/testing';
import { IngestConfig } from './ingest.config';

const base = { NATS_URL: 'nats://ingest:p0d3b8e1f6a9c2e5b8d1f4a7c0e3b6d9@127.0.0.1:4222', DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/pp' };
const file = (content: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'ingest-config-')), 'overrides.json');
  writeFileSync(path, content);
  return path;
};
const problems = (env: Record<string, string>) => configProblems(IngestConfig, { ...base, ...env });

describe('ingest configuration', () => {
  it('trusts payments.interac.ca by default and reads a comma-separated list', () => {
    expect(loadConfig(IngestConfig, base).INGEST_TRUSTED_DKIM_DOMAINS).toEqual(['payments.interac.ca']);
    expect(loadConfig(IngestConfig, { ...base, INGEST_TRUSTED_DKIM_DOMAINS: 'payments.interac.ca, Notify.Bank.example' }).INGEST_TRUSTED_DKIM_DOMAINS).toEqual([
      'payments.interac.ca',
      'notify.bank.example',
    ]);
  });

  it('refuses a malformed domain list', () => {
    expect(problems({ INGEST_TRUSTED_DKIM_DOMAINS: 'payments.interac.ca,not a domain' })).toEqual([
      expect.stringMatching(/^INGEST_TRUSTED_DKIM_DOMAINS is invalid: must be comma-separated domain names/),
    ]);
  });

  it('accepts a valid overrides file and names the problem with a bad one', () => {
    const good = file(JSON.stringify({ 's1._domainkey.payments.interac.ca': 'v=DKIM1; k=rsa; p=MIIB' }));
    expect(loadConfig(IngestConfig, { ...base, INGEST_DNS_OVERRIDES: good }).INGEST_DNS_OVERRIDES).toBe(good);
    expect(problems({ INGEST_DNS_OVERRIDES: '/nonexistent/overrides.json' })).toEqual([expect.stringMatching(/INGEST_DNS_OVERRIDES is invalid: cannot read JSON/)]);
    expect(problems({ INGEST_DNS_OVERRIDES: file('{"payments.interac.ca": "v=DKIM1; p=x"}') })).toEqual([
      expect.stringMatching(/is not a <selector>\._domainkey\.<domain> name/),
    ]);
    expect(problems({ INGEST_DNS_OVERRIDES: file('{"s._domainkey.a.example": 42}') })).toEqual([expect.stringMatching(/must be a DKIM key record/)]);
  });

  it('reads e-mails in 2 workers under a 2 s deadline by default, and refuses unusable values', () => {
    expect(loadConfig(IngestConfig, base)).toMatchObject({ INGEST_PARSE_TIMEOUT_MS: 2000, INGEST_PARSE_WORKERS: 2 });
    expect(loadConfig(IngestConfig, { ...base, INGEST_PARSE_TIMEOUT_MS: '500', INGEST_PARSE_WORKERS: '4' })).toMatchObject({ INGEST_PARSE_TIMEOUT_MS: 500, INGEST_PARSE_WORKERS: 4 });
    expect(problems({ INGEST_PARSE_TIMEOUT_MS: '2s' })).toEqual([expect.stringMatching(/^INGEST_PARSE_TIMEOUT_MS is invalid: .*must be a whole number of milliseconds/)]);
    expect(problems({ INGEST_PARSE_TIMEOUT_MS: '50' })).toEqual([expect.stringMatching(/^INGEST_PARSE_TIMEOUT_MS is invalid: must be at least 100/)]);
    expect(problems({ INGEST_PARSE_TIMEOUT_MS: '600000' })).toEqual([expect.stringMatching(/^INGEST_PARSE_TIMEOUT_MS is invalid: must be at most 60000/)]);
    expect(problems({ INGEST_PARSE_WORKERS: '0' })).toEqual([expect.stringMatching(/^INGEST_PARSE_WORKERS is invalid: must be at least 1/)]);
    expect(problems({ INGEST_PARSE_WORKERS: 'many' })).toEqual([expect.stringMatching(/^INGEST_PARSE_WORKERS is invalid: .*must be a whole number of worker threads/)]);
  });

  it('authenticates e-mails in 2 workers under a 10 s deadline by default, never shorter than two key lookups', () => {
    expect(loadConfig(IngestConfig, base)).toMatchObject({ INGEST_AUTH_TIMEOUT_MS: 10_000, INGEST_AUTH_WORKERS: 2 });
    expect(loadConfig(IngestConfig, { ...base, INGEST_AUTH_TIMEOUT_MS: '8000', INGEST_AUTH_WORKERS: '3' })).toMatchObject({ INGEST_AUTH_TIMEOUT_MS: 8000, INGEST_AUTH_WORKERS: 3 });
    expect(problems({ INGEST_AUTH_TIMEOUT_MS: '10s' })).toEqual([expect.stringMatching(/^INGEST_AUTH_TIMEOUT_MS is invalid: .*must be a whole number of milliseconds/)]);
    expect(problems({ INGEST_AUTH_TIMEOUT_MS: '2000' })).toEqual([
      expect.stringMatching(/^INGEST_AUTH_TIMEOUT_MS is invalid: must be at least 8000 \(milliseconds\): a DKIM key lookup alone may take 4000$/),
    ]);
    expect(problems({ INGEST_AUTH_TIMEOUT_MS: '600000' })).toEqual([expect.stringMatching(/^INGEST_AUTH_TIMEOUT_MS is invalid: must be at most 60000/)]);
    expect(problems({ INGEST_AUTH_WORKERS: '0' })).toEqual([expect.stringMatching(/^INGEST_AUTH_WORKERS is invalid: must be at least 1/)]);
    expect(problems({ INGEST_AUTH_WORKERS: 'all' })).toEqual([expect.stringMatching(/^INGEST_AUTH_WORKERS is invalid: .*must be a whole number of worker threads/)]);
  });

  it('stops a worker thread idle for 10 s by default, and takes from 1 s to a day', () => {
    expect(loadConfig(IngestConfig, base)).toMatchObject({ INGEST_WORKER_IDLE_MS: 10_000 });
    expect(loadConfig(IngestConfig, { ...base, INGEST_WORKER_IDLE_MS: '600000' })).toMatchObject({ INGEST_WORKER_IDLE_MS: 600_000 });
    expect(problems({ INGEST_WORKER_IDLE_MS: '10s' })).toEqual([expect.stringMatching(/^INGEST_WORKER_IDLE_MS is invalid: .*must be a whole number of milliseconds/)]);
    expect(problems({ INGEST_WORKER_IDLE_MS: '500' })).toEqual([expect.stringMatching(/^INGEST_WORKER_IDLE_MS is invalid: must be at least 1000/)]);
    expect(problems({ INGEST_WORKER_IDLE_MS: '86400001' })).toEqual([expect.stringMatching(/^INGEST_WORKER_IDLE_MS is invalid: must be at most 86400000/)]);
  });
});
