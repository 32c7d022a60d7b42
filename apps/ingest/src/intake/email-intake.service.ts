import { Injectable } from '@nestjs/common';
import type { SubmitEmailReply } from '@pp/contracts';
import { IngestMetrics } from '../processing/ingest.metrics';
import { EmailRepository, type IntakeChannel, type StoredEmail } from './email.repository';
import { inspectRawMessage } from './raw-message';

/** Both ways in (bus command and JetStream) end here: check the message, then store it as evidence. */
@Injectable()
export class EmailIntake {
  constructor(
    private readonly emails: EmailRepository,
    private readonly metrics: IngestMetrics,
  ) {}

  /**
   * Throws VALIDATION_FAILED for input that is not an RFC 822 message of at
   * most 5 MB. An accepted message comes back whole (`stored`), so processing
   * it needs no second read of the bytes just written.
   */
  async receive(bytes: Buffer, channel: IntakeChannel): Promise<SubmitEmailReply & { stored?: StoredEmail }> {
    const receipt = await this.emails.store(inspectRawMessage(bytes), channel);
    if (receipt.status === 'duplicate') this.metrics.duplicate();
    return receipt;
  }
}
