import { Injectable } from '@nestjs/common';
import type { SubmitEmailReply } from '@pp/contracts';
import { EmailRepository, type IntakeChannel } from './email.repository';
import { inspectRawMessage } from './raw-message';

/** Both ways in (bus command and JetStream) end here: check the message, then store it as evidence. */
@Injectable()
export class EmailIntake {
  constructor(private readonly emails: EmailRepository) {}

  /** Throws VALIDATION_FAILED for input that is not an RFC 822 message of at most 5 MB. */
  receive(bytes: Buffer, channel: IntakeChannel): Promise<SubmitEmailReply> {
    return this.emails.store(inspectRawMessage(bytes), channel);
  }
}
