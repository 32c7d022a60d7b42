import { JsonLogger } from '@pp/platform';
import { buildNotice } from '@pp/testing';
import type { NoticeAuthentication } from '../authentication/notice-authentication';
import { unauthenticated } from '../authentication/notice-authenticator';
import type { EmailRepository } from '../intake/email.repository';
import { planMatching } from '../matching/matching-plan';
import { unreadableNotice } from '../parsing/notice-parser';
import type { NoticeReader } from '../parsing/notice-reader';
import { EmailProcessor } from './email-processor';
import type { IngestMetrics } from './ingest.metrics';
import type { NoticeHandler } from './notice-handler';
import type { OutcomeRepository } from './outcome.repository';
import type { ProcessedEmail } from './processed-email';

/** A processor whose workers both gave up on every message (auth_timeout, parse_timeout); answers what it handed off. */
function processorGivingUp() {
  const handed: ProcessedEmail[] = [];
  const outcomes = {
    recordAll: async (verdicts: unknown[]) => verdicts.map(() => ({ status: 'unauthenticated', duplicate_of: null })),
    recordHandoff: async () => undefined,
  } as unknown as OutcomeRepository;
  const authentication = { authenticate: async () => unauthenticated('auth_timeout') } as unknown as NoticeAuthentication;
  const reader = { read: async () => ({ facts: null, parse: unreadableNotice(null, 'parse_timeout') }) } as unknown as NoticeReader;
  const handler: NoticeHandler = { handle: async (email) => (handed.push(email), { disposition: 'quarantined' }) };
  const metrics = { watchTrailingHandOffs: () => undefined, authenticated: () => undefined, duplicate: () => undefined, handedOff: () => undefined } as unknown as IngestMetrics;
  const logger = new JsonLogger('ingest', 'info', () => undefined);
  const processor = new EmailProcessor({} as EmailRepository, outcomes, authentication, handler, logger, reader, metrics);
  return { processor, handed };
}

describe('EmailProcessor', () => {
  it('given a notice whose authentication and reading both gave up, when processed, then it is routed by the To and Delivered-To of its raw header section, and may only be reviewed', async () => {
    const { processor, handed } = processorGivingUp();
    const raw = Buffer.from(`Delivered-To: inbox+acme@platform.example\r\n${buildNotice({ to: 'Pay@Shop.example' })}`);
    await processor.process({ id: 'em_gaveup0001', raw, received_at: new Date() });

    expect(handed).toHaveLength(1);
    const plan = planMatching(handed[0]);
    expect(plan).toMatchObject({
      action: 'record',
      recipients: ['pay@shop.example', 'inbox+acme@platform.example'],
      // Unsigned headers: nothing here can confirm the transfer.
      transfer: { evidence: { authenticated: false, signed_recipient: null, authentication_reasons: ['auth_timeout'], parse_reasons: ['parse_timeout'] } },
    });
  });
});
