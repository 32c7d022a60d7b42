import { repositoryDatabase } from '@pp/testing';
import type { Pool } from 'pg';
import { unauthenticated } from '../authentication/notice-authenticator';
import { IngestDatabase } from '../database/ingest.database';
import { unreadableNotice } from '../parsing/notice-parser';
import { OutcomeRepository } from '../processing/outcome.repository';
import type { ProcessedEmail } from '../processing/processed-email';
import { storeEmailAt } from '../processing/stored-email.fixture';
import type { MatchResult, NoticeMatcher } from './notice-matcher';
import { QuarantineHandler } from './quarantine.handler';
import { QuarantineRepository } from './quarantine.repository';

const MATCHED: MatchResult = { disposition: 'manual_review', merchant_id: 'mer_till', payment_id: 'txn_1', review_reasons: ['unauthenticated_sender'] };

/**
 * A matcher that answers `MATCHED` only once `callers` retries are matching at once (both have found no release yet),
 * and keeps the e-mails it was given.
 */
function matcherFor(callers: number, matched: ProcessedEmail[] = []): NoticeMatcher {
  let arrived = 0;
  let allArrived!: () => void;
  const together = new Promise<void>((resolve) => (allArrived = resolve));
  return {
    match: async (email: ProcessedEmail) => {
      matched.push(email);
      if (++arrived === callers) allArrived();
      await together;
      return MATCHED;
    },
  } as unknown as NoticeMatcher;
}

describe('QuarantineHandler.retry (real Postgres, the ingest role)', () => {
  let admin: Pool;
  let close: () => Promise<void>;
  let outcomes: OutcomeRepository;
  let quarantine: QuarantineRepository;

  beforeAll(async () => {
    let dataSource;
    ({ dataSource, admin, close } = await repositoryDatabase(IngestDatabase, 'ingestrelease'));
    outcomes = new OutcomeRepository(dataSource);
    quarantine = new QuarantineRepository(dataSource);
  }, 60_000);
  afterAll(async () => {
    await close?.();
  });

  /**
   * A stored e-mail addressed to till@shop.example, recorded as unreadable with `recorded` as its recipients, and
   * quarantined, as the matcher leaves one addressed to no merchant.
   */
  async function quarantinedEmail(recorded = ['till@shop.example']): Promise<string> {
    const emailId = await storeEmailAt(admin, new Date(), ['From: notify@payments.interac.ca', 'To: Till <till@shop.example>']);
    const email: ProcessedEmail = {
      email_id: emailId,
      received_at: new Date().toISOString(),
      status: 'unauthenticated',
      authentication: unauthenticated('auth_timeout'),
      parse: unreadableNotice(null, 'parse_timeout'),
      recipients: { to: recorded, delivered_to: [] },
    };
    await outcomes.record(email);
    await quarantine.quarantine(emailId, recorded);
    return emailId;
  }

  it('given two admins releasing the same e-mail at the same time, then exactly one is told it changed it, and the release names that one', async () => {
    const emailId = await quarantinedEmail();
    const handler = new QuarantineHandler(quarantine, matcherFor(2));
    const replies = await Promise.all([handler.retry({ email_id: emailId, released_by: 'adm_first0001' }), handler.retry({ email_id: emailId, released_by: 'adm_second001' })]);

    expect(replies.filter((reply) => reply.changed)).toHaveLength(1);
    const winner = replies.findIndex((reply) => reply.changed);
    expect(replies[winner].released_by).toBe(['adm_first0001', 'adm_second001'][winner]);
    // Both answer the release that stands.
    const { changed: _won, ...standing } = replies[winner];
    expect(replies[1 - winner]).toEqual({ ...standing, changed: false });
    const stored = await admin.query(`SELECT released_by FROM ingest.quarantine_releases WHERE email_id = $1`, [emailId]);
    expect(stored.rows).toEqual([{ released_by: standing.released_by }]);
  });

  it('given an unreadable e-mail quarantined with no recipient (recorded before its header section was read), when released, then it is routed by the To of its raw header section', async () => {
    const emailId = await quarantinedEmail([]);
    const matched: ProcessedEmail[] = [];
    const reply = await new QuarantineHandler(quarantine, matcherFor(1, matched)).retry({ email_id: emailId, released_by: 'adm_first0001' });
    expect(matched.map((email) => email.recipients)).toEqual([{ to: ['Till <till@shop.example>'], delivered_to: [] }]);
    expect(reply).toMatchObject({ payment_id: 'txn_1', changed: true });
  });
});
