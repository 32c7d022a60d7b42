import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  DomainError,
  ErrorCode,
  type ListPage,
  ListQuarantineParams,
  type QuarantinedEmailView,
  type QuarantineRetryReply,
  RetryQuarantinedEmailCommand,
} from '@pp/contracts';
import { Handles } from '@pp/platform';
import { NoticeMatcher } from './notice-matcher';
import { QuarantineRepository } from './quarantine.repository';

/** The platform admins' view of quarantined mail (through the gateway's admin routes). */
@Controller()
export class QuarantineHandler {
  constructor(
    private readonly quarantine: QuarantineRepository,
    private readonly matcher: NoticeMatcher,
  ) {}

  @Handles('ingest.quarantine.list.v1')
  list(@Payload() query: ListQuarantineParams): Promise<ListPage<QuarantinedEmailView>> {
    return this.quarantine.list(query);
  }

  /**
   * Matches the e-mail again, typically after its merchant registered the deposit address. A released one answers
   * its release with changed: false, so the audit trail names one admin as having released it. Two retries at the
   * very same time may both find none and both say changed (the first release stands, and both answer it).
   */
  @Handles('ingest.quarantine.retry.v1')
  async retry(@Payload() command: RetryQuarantinedEmailCommand): Promise<QuarantineRetryReply> {
    const email = await this.quarantine.processedEmail(command.email_id);
    if (!email) throw new DomainError(ErrorCode.NotFound, 'Quarantined e-mail not found');
    const earlier = await this.quarantine.releaseOf(email.email_id);
    if (earlier) return { id: email.email_id, ...earlier, changed: false };
    const result = await this.matcher.match(email);
    if (result.disposition === 'quarantined') {
      throw new DomainError(ErrorCode.Conflict, "No merchant has this e-mail's recipient as its e-Transfer deposit address; register it first");
    }
    if ('payment_id' in result) await this.quarantine.release(email.email_id, { ...result, released_by: command.released_by ?? null });
    const release = await this.quarantine.releaseOf(email.email_id);
    if (!release) throw new DomainError(ErrorCode.Internal, `Quarantined e-mail ${email.email_id} matched but no release was recorded`);
    return { id: email.email_id, ...release, changed: true };
  }
}
