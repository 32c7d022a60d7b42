import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { DomainError, type EmailEvidenceView, ErrorCode, GetEmailEvidenceQuery } from '@pp/contracts';
import { Handles } from '@pp/platform';
import { EmailEvidenceRepository } from './email-evidence.repository';

/** A stored e-mail as evidence, for the platform admins' review queue in the dashboard. */
@Controller()
export class EmailEvidenceHandler {
  constructor(private readonly evidence: EmailEvidenceRepository) {}

  @Handles('ingest.emails.evidence.v1')
  async get(@Payload() query: GetEmailEvidenceQuery): Promise<EmailEvidenceView> {
    const found = await this.evidence.find(query.email_id);
    if (!found) throw new DomainError(ErrorCode.NotFound, 'E-mail not found');
    return found;
  }
}
