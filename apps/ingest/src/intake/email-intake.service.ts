import { Injectable } from '@nestjs/common';
import { Batcher } from '@pp/platform';
import { IngestMetrics } from '../processing/ingest.metrics';
import { type Arrival, EmailRepository, type IntakeChannel, type StoreReceipt } from './email.repository';
import { inspectRawMessage } from './raw-message';

/**
 * Both ways in (bus command and JetStream) end here: check the message, then
 * store it as evidence. Messages that arrive together (a burst taken from
 * JetStream, concurrent submissions) are stored in one statement.
 */
@Injectable()
export class EmailIntake {
  private readonly arrivals = new Batcher<Arrival, StoreReceipt>((batch) => this.emails.storeAll(batch));

  constructor(
    private readonly emails: EmailRepository,
    private readonly metrics: IngestMetrics,
  ) {}

  /**
   * Throws VALIDATION_FAILED for input that is not an RFC 822 message of at
   * most 5 MB. An accepted message comes back whole (`stored`), so processing
   * it needs no second read of the bytes just written. `objectName`: the
   * blob-bucket object the bytes came in, which receiveRepeat finds the
   * e-mail by once it is removed.
   */
  async receive(bytes: Buffer, channel: IntakeChannel, objectName?: string): Promise<StoreReceipt> {
    const message = inspectRawMessage(bytes);
    const receipt = await this.arrivals.add({ message, channel });
    // The object is named by the hash of the bytes as posted: with an envelope cut off, not by the stored one.
    if (objectName && objectName !== message.sha256) await this.emails.rememberObject(objectName, receipt.id);
    if (receipt.status === 'duplicate') this.metrics.duplicate();
    return receipt;
  }

  /** A repeat of a message stored earlier whose bytes are gone (a retried post of the same object): its receipt, or null. */
  async receiveRepeat(objectName: string, channel: IntakeChannel): Promise<StoreReceipt | null> {
    const receipt = await this.emails.repeatOf(objectName, channel);
    if (receipt) this.metrics.duplicate();
    return receipt;
  }
}
