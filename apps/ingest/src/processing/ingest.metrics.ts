import { Injectable } from '@nestjs/common';
import { ReviewReason } from '@pp/contracts';
import { INGEST_AUTHENTICATION_FAILURES, INGEST_MESSAGES, INGEST_REVIEW_REASONS, INGEST_TRAILING_HAND_OFFS, ServiceMetrics } from '@pp/platform';
import type { Counter } from 'prom-client';
import type { AuthenticationFailure, AuthenticationResult } from '../authentication/authentication.types';
import type { HandoffResult } from './notice-handler';

const REVIEW_REASONS: ReadonlySet<string> = new Set(Object.values(ReviewReason));

/** An authentication failure's code, without the header some name. */
type AuthenticationFailureCode = AuthenticationFailure extends infer R ? (R extends `${infer Code}:${string}` ? Code : R) : never;

/** Every code, for the reason label; a Record, so that a failure added to AuthenticationFailure cannot be left out. */
const AUTHENTICATION_FAILURE_CODES = Object.keys({
  dkim_missing: true,
  dkim_too_many_signatures: true,
  dkim_untrusted_domain: true,
  dkim_failed: true,
  dkim_key_unavailable: true,
  dkim_body_length_tag: true,
  bare_carriage_return: true,
  dkim_headers_not_covered: true,
  header_not_signed: true,
  from_not_trusted: true,
  from_not_aligned: true,
  header_missing: true,
  header_not_unique: true,
  auth_timeout: true,
  auth_failed: true,
  header_section_too_large: true,
  header_line_malformed: true,
} satisfies Record<AuthenticationFailureCode, true>);

/** The reason label of an authentication failure: its code without the header it names (`header_not_signed:from` → `header_not_signed`). */
export const authenticationFailureLabel = (reason: string): string => reason.split(':', 1)[0];

/** The reason label of a review reason: a ReviewReason code, or `other` (the ingest's own reasons that follow them are counted elsewhere). */
export const reviewReasonLabel = (reason: string): string => (REVIEW_REASONS.has(reason) ? reason : 'other');

/** What became of each e-mail: its outcome, why it went to review, why it was not authenticated. No e-mail, merchant or payment ids. */
@Injectable()
export class IngestMetrics {
  private readonly messages: Counter<'outcome'>;
  private readonly reviewReasons: Counter<'reason'>;
  private readonly authenticationFailures: Counter<'reason'>;

  constructor(private readonly metrics: ServiceMetrics) {
    this.messages = metrics.counter(INGEST_MESSAGES);
    this.reviewReasons = metrics.counter(INGEST_REVIEW_REASONS);
    // At 0 from the start, so that increase() sees a process's first failure of each reason.
    this.authenticationFailures = metrics.counter(INGEST_AUTHENTICATION_FAILURES, { startAtZero: { reason: AUTHENTICATION_FAILURE_CODES } });
  }

  /** A copy of an e-mail already stored, or of a transfer another e-mail already claimed: nothing more happens to it. */
  duplicate(): void {
    this.messages.inc({ outcome: 'duplicate' });
  }

  /** Authentication's verdict, when this run recorded the e-mail's outcome. */
  authenticated(authentication: AuthenticationResult): void {
    if (authentication.authenticated) return;
    for (const reason of new Set(authentication.reasons.map(authenticationFailureLabel))) this.authenticationFailures.inc({ reason });
  }

  handedOff(result: HandoffResult): void {
    this.messages.inc({ outcome: result.disposition });
    for (const reason of new Set((result.review_reasons ?? []).map(reviewReasonLabel))) this.reviewReasons.inc({ reason });
  }

  /** Reports, at each scrape, how many hand-offs run behind answered submissions. */
  watchTrailingHandOffs(count: () => number): void {
    this.metrics.readAtScrape(INGEST_TRAILING_HAND_OFFS, () => Promise.resolve([{ labels: {}, value: count() }]));
  }
}
