import { existsSync, rmSync } from 'node:fs';
import { JsonLogger } from '@pp/platform';
import { buildNotice, dnsOverridesFor, signEmail, testDkimKey, writeDnsOverrides } from '@pp/testing';
import { answerAuthentication, verdictOf } from './authentication-answer';
import { authenticationPolicy } from './authentication-policy';
import type { DkimResolver } from './authentication.types';
import { overridesResolver } from './dkim-resolver';
import { NoticeAuthentication, noticeAuthenticationScript } from './notice-authentication';
import { authenticateNotice, DkimKeyUnavailableError, MAX_DKIM_SIGNATURES } from './notice-authenticator';

const interac = testDkimKey();
const TRUSTED = ['payments.interac.ca'];

/*
 * The service's way of authenticating e-mails: the compiled worker (dist/,
 * built by jest's global set-up) in worker threads under a deadline, with a
 * resolver the worker builds from plain settings.
 */
describe('NoticeAuthentication', () => {
  const logged: string[] = [];
  const logger = new JsonLogger('ingest-test', 'info', (line) => logged.push(line));
  const dnsOverrides = writeDnsOverrides(interac);
  let authentication: NoticeAuthentication;

  beforeAll(async () => {
    // Below the configurable minimum (ingest.config.ts): no DNS is asked here.
    authentication = new NoticeAuthentication(
      { INGEST_TRUSTED_DKIM_DOMAINS: TRUSTED, INGEST_DNS_OVERRIDES: dnsOverrides, INGEST_AUTH_TIMEOUT_MS: 2_000, INGEST_AUTH_WORKERS: 2, INGEST_WORKER_IDLE_MS: 10_000 },
      logger,
    );
    // Both workers started, so that no worker's start-up counts against the bomb's deadline below.
    const notice = Buffer.from(buildNotice());
    await Promise.all([authentication.authenticate('em_warmup0001', notice), authentication.authenticate('em_warmup0002', notice)]);
  });
  afterAll(() => authentication.onModuleDestroy());

  it('runs the compiled worker script', () => {
    expect(noticeAuthenticationScript()).toMatch(/dist\/apps\/ingest\/src\/authentication\/notice-authentication\.worker\.js$/);
    expect(existsSync(noticeAuthenticationScript())).toBe(true);
  });

  it.each([
    ['a signed notice', () => signEmail(buildNotice())],
    ['an unsigned notice', async () => buildNotice()],
    ['a signed notice re-sent with a second To above the signature', async () => `To: <payments@shop-b.example>\n${await signEmail(buildNotice())}`],
    ['a notice signed with a selector that has no key', () => signEmail(buildNotice(), { key: testDkimKey('payments.interac.ca', 'rogue') })],
  ])('gives %s the verdict authenticateNotice gives inline', async (what, build) => {
    const raw = Buffer.from(await build());
    const inline = await authenticateNotice(raw, { trustedDomains: TRUSTED, resolver: overridesResolver(dnsOverridesFor(interac)) });
    expect(await authentication.authenticate(`em_${what.replace(/\W+/g, '_')}`, raw)).toEqual(inline);
  });

  it('records a message that overruns the deadline as auth_timeout, while the notices after it are authenticated', async () => {
    // Its own pool, with a deadline far below the configurable minimum: a message may carry at most
    // MAX_DKIM_SIGNATURES signatures, and mailauth hashes the body once per distinct l= (dkim-verification.ts), so
    // the slowest message there is is ten hashes of a 5 MB body of short lines: about a second on our two-core
    // machines, several times this deadline on a much faster one, while a notice takes a millisecond or two.
    const hurried = new NoticeAuthentication(
      { INGEST_TRUSTED_DKIM_DOMAINS: TRUSTED, INGEST_DNS_OVERRIDES: dnsOverrides, INGEST_AUTH_TIMEOUT_MS: 200, INGEST_AUTH_WORKERS: 2, INGEST_WORKER_IDLE_MS: 10_000 },
      logger,
    );
    try {
      const notice = Buffer.from(buildNotice());
      await Promise.all([hurried.authenticate('em_warmup0003', notice), hurried.authenticate('em_warmup0004', notice)]);
      const signed = await signEmail(buildNotice() + 'x\n'.repeat(2.5 * 1024 * 1024));
      const lengths = Array.from({ length: MAX_DKIM_SIGNATURES - 1 }, (_, i) => `DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=payments.interac.ca; s=${interac.selector}; l=${5_000_000 - i}; h=from:subject; bh=AAAA; b=AAAA`);
      const bomb = Buffer.from(`${lengths.join('\n')}\n${signed}`);
      const genuine = Buffer.from(await signEmail(buildNotice()));

      let bombSettled = false;
      // The same e-mail asked for twice while it is being verified (inline and by the sweeper) is verified once.
      const slow = Promise.all([hurried.authenticate('em_bomb000001', bomb), hurried.authenticate('em_bomb000001', bomb)]).finally(() => (bombSettled = true));
      expect(await hurried.authenticate('em_genuine0001', genuine)).toMatchObject({ authenticated: true });
      expect(bombSettled).toBe(false);

      const [timedOut, again] = await slow;
      expect(timedOut).toEqual({ authenticated: false, reasons: ['auth_timeout'], from: null, recipient: { signed_recipient: null, reasons: ['recipient_not_signed'] } });
      expect(again).toBe(timedOut);
      expect(logged.filter((line) => line.includes('em_bomb000001') && line.includes('auth_timeout'))).toHaveLength(1);
      expect(await hurried.authenticate('em_genuine0002', genuine)).toMatchObject({ authenticated: true });
    } finally {
      await hurried.onModuleDestroy();
    }
  });
});

describe('NoticeAuthentication whose workers cannot start', () => {
  it('rejects, giving no verdict, so that the e-mail stays for the sweeper', async () => {
    const overrides = writeDnsOverrides(interac);
    // Valid at boot, gone when a worker starts.
    rmSync(overrides);
    const broken = new NoticeAuthentication(
      { INGEST_TRUSTED_DKIM_DOMAINS: TRUSTED, INGEST_DNS_OVERRIDES: overrides, INGEST_AUTH_TIMEOUT_MS: 10_000, INGEST_AUTH_WORKERS: 1, INGEST_WORKER_IDLE_MS: 10_000 },
      new JsonLogger('ingest-test', 'info', () => undefined),
    );
    try {
      await expect(broken.authenticate('em_broken0001', Buffer.from(buildNotice()))).rejects.toThrow(/the worker failed to start: .*cannot read JSON/);
    } finally {
      await broken.onModuleDestroy();
    }
  });
});

describe('the authentication answer between threads', () => {
  const serverFailure: DkimResolver = async () => {
    throw Object.assign(new Error('server failure'), { code: 'ESERVFAIL' });
  };

  it('carries DNS trouble across as DkimKeyUnavailableError, no verdict: the e-mail is retried', async () => {
    const raw = Buffer.from(await signEmail(buildNotice()));
    const answer = await answerAuthentication(raw, { trustedDomains: TRUSTED, resolver: serverFailure });
    // What postMessage does to it on the way back.
    const received = structuredClone(answer);
    expect(received).toEqual({ keyUnavailable: expect.stringContaining('ESERVFAIL') });
    expect(() => verdictOf(received)).toThrow(DkimKeyUnavailableError);
    expect(() => verdictOf(received)).toThrow(/DKIM key lookup failed: .*ESERVFAIL/);
  });

  it('carries a verdict across unchanged', async () => {
    const raw = Buffer.from(await signEmail(buildNotice()));
    const policy = { trustedDomains: TRUSTED, resolver: overridesResolver(dnsOverridesFor(interac)) };
    expect(verdictOf(structuredClone(await answerAuthentication(raw, policy)))).toEqual(await authenticateNotice(raw, policy));
  });
});

describe('the worker policy', () => {
  it('asks the resolver only for the keys of trusted domains, and verdicts stay the same', async () => {
    const other = testDkimKey('payments-interac.example', 'mail');
    const policy = authenticationPolicy({ trustedDomains: TRUSTED, dnsOverridesPath: writeDnsOverrides(interac, other) });
    await expect(policy.resolver(`${interac.selector}._domainkey.payments.interac.ca`, 'TXT')).resolves.toEqual([[interac.record]]);
    await expect(policy.resolver('mail._domainkey.payments-interac.example', 'TXT')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(policy.resolver(`${interac.selector}._domainkey.sub.payments.interac.ca`, 'TXT')).rejects.toMatchObject({ code: 'ENOTFOUND' });

    const byOther = Buffer.from(await signEmail(buildNotice(), { key: other }));
    const everyKey = { trustedDomains: TRUSTED, resolver: overridesResolver(dnsOverridesFor(interac, other)) };
    expect(await authenticateNotice(byOther, policy)).toEqual(await authenticateNotice(byOther, everyKey));
  });
});
