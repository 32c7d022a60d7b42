import type { AuthenticationFailure } from '../authentication/authentication.types';
import { MAX_EVIDENCE_REASONS } from '@pp/contracts';
import { clipReasons } from './evidence-reasons';

/**
 * The most the authenticator records for one message, in its order: the header-section checks, every singleton
 * header's count, the sender, then the DKIM verdict (a passing signature with l= that covers none of the headers it
 * must). Exactly 20: what older outcomes may hold.
 */
const WORST_STORED: AuthenticationFailure[] = [
  'bare_carriage_return',
  'header_line_malformed',
  'header_not_unique:from',
  'header_not_unique:subject',
  'header_not_unique:date',
  'header_not_unique:message-id',
  'header_not_unique:reply-to',
  'header_not_unique:mime-version',
  'header_not_unique:content-type',
  'header_not_unique:content-transfer-encoding',
  'header_not_unique:content-disposition',
  'from_not_trusted',
  'dkim_body_length_tag',
  'dkim_headers_not_covered',
  'header_not_signed:from',
  'header_not_signed:subject',
  'header_not_signed:mime-version',
  'header_not_signed:content-type',
  'header_not_signed:content-transfer-encoding',
  'header_not_signed:content-disposition',
];

describe('clipReasons', () => {
  it('given as many reasons as the contract takes, then all of them are kept in their order', () => {
    expect(WORST_STORED).toHaveLength(MAX_EVIDENCE_REASONS);
    expect(clipReasons(WORST_STORED)).toEqual(WORST_STORED);
  });

  it('given one reason more than the contract takes, a headline one recorded last, then the list holds the maximum and keeps every headline reason', () => {
    const reasons: AuthenticationFailure[] = [...WORST_STORED, 'from_not_aligned'];
    const clipped = clipReasons(reasons);
    expect(clipped).toHaveLength(MAX_EVIDENCE_REASONS);
    expect(clipped).toEqual(expect.arrayContaining(['bare_carriage_return', 'header_line_malformed', 'from_not_trusted', 'dkim_body_length_tag', 'dkim_headers_not_covered', 'from_not_aligned']));
    // The one dropped is the last detail; the rest keep the order given.
    expect(clipped).toEqual(reasons.filter((reason) => reason !== 'header_not_signed:content-disposition'));
  });

  it('given a reason repeated, then it counts once', () => {
    expect(clipReasons(['dkim_failed', 'dkim_failed', 'from_not_trusted'])).toEqual(['dkim_failed', 'from_not_trusted']);
  });
});
