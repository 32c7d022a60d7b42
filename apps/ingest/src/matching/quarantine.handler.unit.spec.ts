import { DomainError, ErrorCode, type QuarantineRelease } from '@pp/contracts';
import { unauthenticated } from '../authentication/notice-authenticator';
import { unreadableNotice } from '../parsing/notice-parser';
import type { ProcessedEmail } from '../processing/processed-email';
import type { MatchResult, NoticeMatcher } from './notice-matcher';
import { QuarantineHandler } from './quarantine.handler';
import type { QuarantineRepository } from './quarantine.repository';

const EMAIL_ID = 'em_quarantined01';
const BY = 'adm_operator1';
const MATCHED: MatchResult = { disposition: 'confirmed', merchant_id: 'mer_till', payment_id: 'txn_1', review_reasons: [] };

/** A quarantined e-mail addressed to `to` (neither its authentication nor its reading finished). */
const quarantined = (to: string[]): ProcessedEmail => ({
  email_id: EMAIL_ID,
  received_at: '2026-01-02T03:00:00.000Z',
  status: 'unauthenticated',
  authentication: unauthenticated('auth_timeout'),
  parse: unreadableNotice(null, 'parse_timeout'),
  recipients: { to, delivered_to: [] },
});

/** One quarantined e-mail, its release kept in memory as the repository keeps it (the first one stands), and a matcher answering `match`. */
function quarantineWith(match: MatchResult, email = quarantined(['till@shop.example'])) {
  let stored: QuarantineRelease | null = null;
  const matches: string[] = [];
  const quarantine = {
    processedEmail: async (emailId: string) => (emailId === EMAIL_ID ? email : undefined),
    releaseOf: async () => stored,
    release: async (_emailId: string, { merchant_id, disposition, payment_id, released_by }: Omit<QuarantineRelease, 'released_at'>) => {
      if (stored) return false;
      stored = { merchant_id, disposition, payment_id, released_by, released_at: '2026-01-02T03:04:05.000Z' };
      return true;
    },
  };
  const matcher = {
    match: async (email: ProcessedEmail) => {
      matches.push(email.email_id);
      return match;
    },
  };
  return { handler: new QuarantineHandler(quarantine as unknown as QuarantineRepository, matcher as unknown as NoticeMatcher), matches, released: () => stored };
}

describe('QuarantineHandler.retry', () => {
  it('given a quarantined e-mail whose recipient is now a deposit address, when retried, then it is released in the name of the operator who asked and the reply says this retry changed it', async () => {
    const { handler } = quarantineWith(MATCHED);
    expect(await handler.retry({ email_id: EMAIL_ID, released_by: BY })).toEqual({
      id: EMAIL_ID,
      merchant_id: 'mer_till',
      disposition: 'confirmed',
      payment_id: 'txn_1',
      released_by: BY,
      released_at: '2026-01-02T03:04:05.000Z',
      changed: true,
    });
  });

  it('given an e-mail already released, when retried again, then the same release is answered unchanged and nothing is matched again', async () => {
    const { handler, matches } = quarantineWith(MATCHED);
    const { changed: _first, ...released } = await handler.retry({ email_id: EMAIL_ID, released_by: BY });
    expect(await handler.retry({ email_id: EMAIL_ID, released_by: 'adm_another01' })).toEqual({ ...released, changed: false });
    expect(matches).toEqual([EMAIL_ID]);
  });

  it('given a recipient still no merchant’s deposit address, when retried, then CONFLICT and nothing is released', async () => {
    const { handler, released } = quarantineWith({ disposition: 'quarantined' });
    const refused = handler.retry({ email_id: EMAIL_ID, released_by: BY });
    await expect(refused).rejects.toBeInstanceOf(DomainError);
    await expect(refused).rejects.toMatchObject({ code: ErrorCode.Conflict });
    expect(released()).toBeNull();
  });

  it('given an e-mail that names no recipient at all, when retried, then CONFLICT says there is no address to register, and nothing is matched', async () => {
    const { handler, matches, released } = quarantineWith(MATCHED, quarantined([]));
    await expect(handler.retry({ email_id: EMAIL_ID, released_by: BY })).rejects.toMatchObject({ code: ErrorCode.Conflict, message: expect.stringMatching(/names no recipient/) });
    expect(matches).toEqual([]);
    expect(released()).toBeNull();
  });

  it('given a retry from an edge older than released_by (a rolling deploy), then it is released with no operator named', async () => {
    const { handler } = quarantineWith(MATCHED);
    expect(await handler.retry({ email_id: EMAIL_ID })).toMatchObject({ payment_id: 'txn_1', released_by: null, changed: true });
  });

  it('given an id that is not quarantined, when retried, then NOT_FOUND', async () => {
    const { handler, matches } = quarantineWith(MATCHED);
    await expect(handler.retry({ email_id: 'em_unknown0001', released_by: BY })).rejects.toMatchObject({ code: ErrorCode.NotFound, message: 'Quarantined e-mail not found' });
    expect(matches).toEqual([]);
  });
});
