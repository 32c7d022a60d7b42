import { buildNotice, signEmail, testDkimKey } from '@pp/testing';
import { answerAuthentication } from './authentication-answer';
import type { DkimResolver } from './authentication.types';
import { trustedKeysOnly, withDeadline } from './dkim-resolver';

describe('DKIM key lookups', () => {
  it('gives up a lookup that has not answered by its deadline as DNS trouble (ETIMEOUT)', async () => {
    const never = new Promise<string[][]>(() => undefined);
    await expect(withDeadline(never, 50, 's1._domainkey.payments.interac.ca')).rejects.toMatchObject({
      code: 'ETIMEOUT',
      message: 's1._domainkey.payments.interac.ca: no DNS answer within 50 ms',
    });
  });

  it('passes on an answer, or a failure, that comes in time', async () => {
    await expect(withDeadline(Promise.resolve([['v=DKIM1; p=x']]), 1_000, 'name')).resolves.toEqual([['v=DKIM1; p=x']]);
    await expect(withDeadline(Promise.reject(Object.assign(new Error('nx'), { code: 'ENOTFOUND' })), 1_000, 'name')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('makes a timed-out key lookup a retry, never a verdict', async () => {
    const timedOut: DkimResolver = () => withDeadline(new Promise<string[][]>(() => undefined), 50, 'key');
    const raw = Buffer.from(await signEmail(buildNotice()));
    expect(await answerAuthentication(raw, { trustedDomains: ['payments.interac.ca'], resolver: timedOut })).toEqual({
      keyUnavailable: expect.stringContaining('ETIMEOUT'),
    });
  });

  it('asks the resolver only for names under a trusted domain, case and trailing dot aside', async () => {
    const asked: string[] = [];
    const resolver = trustedKeysOnly(async (name) => (asked.push(name), [['v=DKIM1; p=x']]), ['payments.interac.ca']);
    await expect(resolver('S1._domainkey.Payments.Interac.CA.', 'TXT')).resolves.toEqual([['v=DKIM1; p=x']]);
    for (const name of ['s1._domainkey.evil.example', 's1._domainkey.sub.payments.interac.ca', 'payments.interac.ca', 's1._domainkey.payments.interac.ca.evil.example']) {
      await expect(resolver(name, 'TXT')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    }
    expect(asked).toEqual(['S1._domainkey.Payments.Interac.CA.']);
  });

  it('answers a trusted domain’s key whose name is longer than DNS allows as missing, without a lookup (never DNS trouble to retry)', async () => {
    const asked: string[] = [];
    const resolver = trustedKeysOnly(async (name) => (asked.push(name), [['v=DKIM1; p=x']]), ['payments.interac.ca']);
    const label = 'a'.repeat(60);
    const tooLong = `${label}.${label}.${label}.${label}._domainkey.payments.interac.ca`;
    await expect(resolver(tooLong, 'TXT')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(resolver(`${'b'.repeat(64)}._domainkey.payments.interac.ca`, 'TXT')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(resolver(`x..y._domainkey.payments.interac.ca`, 'TXT')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    expect(asked).toEqual([]);
    const longestLabel = `${'c'.repeat(63)}._domainkey.payments.interac.ca`;
    await expect(resolver(longestLabel, 'TXT')).resolves.toEqual([['v=DKIM1; p=x']]);
    expect(asked).toEqual([longestLabel]);
  });

  it('gives a verdict, not a retry, for a notice signed under a selector too long for DNS (a resolver refuses the name: EBADNAME)', async () => {
    const label = 'a'.repeat(60);
    const key = testDkimKey('payments.interac.ca', `${label}.${label}.${label}.${label}`);
    const refusesTheName: DkimResolver = async (name) => {
      throw Object.assign(new Error(`queryTxt EBADNAME ${name}`), { code: 'EBADNAME' });
    };
    const raw = Buffer.from(await signEmail(buildNotice(), { key }));
    expect(await answerAuthentication(raw, { trustedDomains: ['payments.interac.ca'], resolver: trustedKeysOnly(refusesTheName, ['payments.interac.ca']) })).toMatchObject({
      verdict: { authenticated: false, reasons: expect.arrayContaining(['dkim_key_unavailable']) },
    });
  });
});
