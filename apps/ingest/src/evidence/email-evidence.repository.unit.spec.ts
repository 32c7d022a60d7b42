import { NOTICE_TEXT_SHOWN } from '@pp/contracts';
import type { DataSource } from 'typeorm';
import type { AuthenticationResult } from '../authentication/authentication.types';
import { unreadableNotice } from '../parsing/notice-parser';
import type { NoticeParseResult } from '../parsing/notice.types';
import { EmailEvidenceRepository } from './email-evidence.repository';

const AUTHENTICATED: AuthenticationResult = {
  authenticated: true, signing_domain: 'payments.interac.ca', selector: 's', from: 'notify@payments.interac.ca',
  recipient: { signed_recipient: 'pay@shop.example', reasons: [] }, signatures: [],
};

/** The evidence of one stored e-mail whose outcome recorded `parse`, read through a database that answers that row. */
async function evidenceOf(parse: NoticeParseResult) {
  const row = {
    id: 'em_test0001', received_at: new Date('2026-08-26T18:03:11.000Z'), channel: 'bus', message_id: null, size_bytes: 100,
    status: 'rejected', authentication: AUTHENTICATED, parse, recipients: { to: [], delivered_to: [] }, auth_reasons: [],
    signing_domain: 'payments.interac.ca', parse_reasons: ['mime_unparseable'], kind: 'unknown', amount_cents: null, memo: null,
    reference_number: null, duplicate_of: null,
  };
  const db = { query: () => Promise.resolve([row]) } as unknown as DataSource;
  return new EmailEvidenceRepository(db).find('em_test0001');
}

const withText = (text: string): NoticeParseResult => {
  const parse = unreadableNotice(null);
  return { ...parse, fields: { ...parse.fields, text } };
};

describe('EmailEvidenceRepository', () => {
  it('given a notice text longer than is shown, then it is cut at NOTICE_TEXT_SHOWN characters', async () => {
    const evidence = await evidenceOf(withText(`${'x'.repeat(NOTICE_TEXT_SHOWN)}cut`));
    expect(evidence?.notice_text?.length).toBe(NOTICE_TEXT_SHOWN);
    expect(evidence?.notice_text?.endsWith('xx')).toBe(true);
  });

  it('given a notice text whose cut falls inside a surrogate pair, then the pair is left out whole, never half of it', async () => {
    const evidence = await evidenceOf(withText(`${'x'.repeat(NOTICE_TEXT_SHOWN - 1)}\u{1f600} and more`));
    const shown = evidence?.notice_text ?? '';
    expect(shown.length).toBe(NOTICE_TEXT_SHOWN - 1);
    expect(shown.slice(-3)).toBe('xxx');
  });
});
