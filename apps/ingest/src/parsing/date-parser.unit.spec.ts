import { readDateHeader } from './date-parser';

describe('readDateHeader', () => {
  it.each([
    ['Wed, 26 Aug 2026 14:03:11 -0400', '2026-08-26T18:03:11.000Z'],
    ['26 Aug 2026 14:03:11 +0000 (UTC)', '2026-08-26T14:03:11.000Z'],
    ['Mon, 1 Jun 2026 10:00 EDT', '2026-06-01T14:00:00.000Z'],
    ['Thu, 31 Dec 2026 23:59:59 +0530', '2026-12-31T18:29:59.000Z'],
    ['Sat, 28 Feb 2026 09:00:00 GMT', '2026-02-28T09:00:00.000Z'],
    ['Sat, 28 Feb 2026 09:00:00 UTC', '2026-02-28T09:00:00.000Z'],
  ])('given %s, then it reads %s', (header, iso) => {
    expect(readDateHeader(header)).toBe(iso);
  });

  it.each([
    ['a time without a zone (read in the server’s zone, whatever that is)', 'Mon, 1 Jun 2026 10:00:00'],
    ['a day without a time', '1 Jun 2026'],
    ['a year alone', '2026'],
    ['a day the calendar does not have (rolled into March)', 'Tue, 31 Feb 2026 10:00:00 +0000'],
    ['an hour past 23', 'Mon, 1 Jun 2026 24:00:00 +0000'],
    ['a military zone letter', 'Mon, 1 Jun 2026 10:00:00 Q'],
    ['an ISO timestamp', '2026-06-01T10:00:00Z'],
    ['nothing', ''],
  ])('given %s, then it is unknown (null)', (_what, header) => {
    expect(readDateHeader(header)).toBeNull();
  });

  it('reads the same under any server time zone', () => {
    const zone = process.env.TZ;
    try {
      process.env.TZ = 'America/Toronto';
      expect(readDateHeader('Mon, 1 Jun 2026 10:00:00 +0000')).toBe('2026-06-01T10:00:00.000Z');
      expect(readDateHeader('Mon, 1 Jun 2026 10:00:00')).toBeNull();
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});
