import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { DomainError, ErrorCode, SubmitEmailCommand, type SubmitEmailReply } from '@pp/contracts';
import { Handles, WaveGate } from '@pp/platform';
import { EmailProcessor } from '../processing/email-processor';
import { EmailIntake } from './email-intake.service';
import { RawEmailBucket } from './raw-email-bucket';
import { decodeBase64 } from './raw-message';

/**
 * How long a submission may wait for the ones ahead of it (WaveGate) before
 * it starts beside them: a notice whose hand-off is slow holds the next
 * wave no longer than this.
 */
const WAVE_MAX_WAIT_MS = 200;

/**
 * How long a wave may wait for the senders of the wave before it to come
 * back (WaveGate): their answers and next posts go through the gateway, and
 * took more than 10 ms under load. Waiting up to 50 ms, the bench's 32
 * senders went in waves of 31 instead of 14 and cost 4.04 ms of CPU per
 * notice instead of 4.47 (docs/PERFORMANCE.md, "Posted notices wait for
 * their senders"). A lone sender never waits.
 */
const WAVE_REGATHER_MS = 50;

@Controller()
export class SubmitEmailController {
  /**
   * Submissions go through in waves. Each sender waits for its answer, so
   * one at a time they would arrive spread out and wake every stage (store,
   * workers, outcomes, hand-off) alone; in waves they share those wake-ups,
   * as a burst taken from JetStream does.
   */
  private readonly waves = new WaveGate({ maxWaitMs: WAVE_MAX_WAIT_MS, regatherMs: WAVE_REGATHER_MS });

  constructor(
    private readonly intake: EmailIntake,
    private readonly processor: EmailProcessor,
    private readonly bucket: RawEmailBucket,
  ) {}

  /**
   * Stores the message and records its outcome before answering, so that a
   * copy repeating an authenticated reference number is already reported as
   * a duplicate; the hand-off to payments goes on behind the answer. If
   * processing fails the message stays stored and is retried.
   */
  @Handles('ingest.email.submit.v1')
  submit(@Payload() command: SubmitEmailCommand): Promise<SubmitEmailReply> {
    return this.waves.run(() => this.process(command));
  }

  private async process(command: SubmitEmailCommand): Promise<SubmitEmailReply> {
    const bytes = await this.rawBytes(command);
    if (!bytes) return this.repeatOfStored(command.object_name!);
    const receipt = await this.intake.receive(bytes, 'bus', command.object_name);
    if (command.object_name) await this.bucket.remove(command.object_name).catch(() => undefined); // it expires anyway
    if (!receipt.stored) return { id: receipt.id, status: receipt.status };
    const outcome = await this.processor.processAnsweringAtOutcome(receipt.stored);
    return { id: receipt.id, status: outcome?.status === 'duplicate' ? 'duplicate' : 'accepted' };
  }

  /** Inline bytes, or the sender's object in the blob bucket (removed once the message is stored); null when no such object is left. */
  private async rawBytes(command: SubmitEmailCommand): Promise<Buffer | null> {
    if ((command.raw_base64 === undefined) === (command.object_name === undefined)) {
      throw new DomainError(ErrorCode.ValidationFailed, 'Validation failed: send exactly one of raw_base64 and object_name');
    }
    if (command.raw_base64 !== undefined) return decodeBase64(command.raw_base64);
    return this.bucket.get(command.object_name!);
  }

  /**
   * The object is named by the sha256 of the posted bytes, so a retried (or concurrent) post of a large message shares
   * the first post's object, which the first removes once it has stored the message (and remembered the object's name,
   * when intake cut an envelope off and stored other bytes): the retry is a duplicate of it, not a bad request.
   */
  private async repeatOfStored(objectName: string): Promise<SubmitEmailReply> {
    const receipt = await this.intake.receiveRepeat(objectName, 'bus');
    if (!receipt) throw new DomainError(ErrorCode.ValidationFailed, 'Validation failed: object_name names no stored message');
    return { id: receipt.id, status: receipt.status };
  }
}
