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
import { recipientsOf } from './matching-plan';
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
   * Matches the e-mail again, typically after its merchant registered the deposit address. Only the retry whose
   * release was written answers changed: true, so the audit trail names one admin as having released it; one that
   * finds it released already, or loses to a retry at the very same time (or to a repeated hand-off), answers the
   * release that stands with changed: false.
   */
  @Handles('ingest.quarantine.retry.v1')
  async retry(@Payload() command: RetryQuarantinedEmailCommand): Promise<QuarantineRetryReply> {
    const email = await this.quarantine.processedEmail(command.email_id);
    if (!email) throw new DomainError(ErrorCode.NotFound, 'Quarantined e-mail not found');
    const earlier = await this.quarantine.releaseOf(email.email_id);
    if (earlier) return { id: email.email_id, ...earlier, changed: false };
    if (recipientsOf(email).length === 0) {
      // No address to register: asking for one would keep an operator trying for ever.
      throw new DomainError(ErrorCode.Conflict, 'This e-mail names no recipient address, so no merchant can be found for it; it stays quarantined');
    }
    const result = await this.matcher.match(email);
    if (result.disposition === 'quarantined') {
      throw new DomainError(ErrorCode.Conflict, "No merchant has this e-mail's recipient as its e-Transfer deposit address; register it first");
    }
    const changed = 'payment_id' in result && (await this.quarantine.release(email.email_id, { ...result, released_by: command.released_by ?? null }));
    const release = await this.quarantine.releaseOf(email.email_id);
    if (!release) throw new DomainError(ErrorCode.Internal, `Quarantined e-mail ${email.email_id} matched but no release was recorded`);
    return { id: email.email_id, ...release, changed };
  }
}
