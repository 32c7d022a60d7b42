import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { SubmitEmailCommand, type SubmitEmailReply } from '@pp/contracts';
import { EmailProcessor } from '../processing/email-processor';
import { EmailIntake } from './email-intake.service';
import { decodeBase64 } from './raw-message';

@Controller()
export class SubmitEmailController {
  constructor(
    private readonly intake: EmailIntake,
    private readonly processor: EmailProcessor,
  ) {}

  /**
   * Stores the message, then processes it before answering, so that a copy
   * repeating an authenticated reference number is already reported as a
   * duplicate. If processing fails the message stays stored and is retried.
   */
  @MessagePattern('ingest.email.submit.v1')
  async submit(@Payload() command: SubmitEmailCommand): Promise<SubmitEmailReply> {
    const receipt = await this.intake.receive(decodeBase64(command.raw_base64), 'bus');
    if (receipt.status === 'duplicate') return receipt;
    const outcome = await this.processor.processSafely(receipt.id);
    return { id: receipt.id, status: outcome?.status === 'duplicate' ? 'duplicate' : 'accepted' };
  }
}
