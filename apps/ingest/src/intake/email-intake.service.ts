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
   * it needs no second read of the bytes just written.
   */
  async receive(bytes: Buffer, channel: IntakeChannel): Promise<StoreReceipt> {
    const receipt = await this.arrivals.add({ message: inspectRawMessage(bytes), channel });
    if (receipt.status === 'duplicate') this.metrics.duplicate();
    return receipt;
  }

  /** A repeat of a message stored earlier whose bytes are gone (a retried post of the same object): its receipt, or null. */
  async receiveRepeat(sha256: string, channel: IntakeChannel): Promise<StoreReceipt | null> {
    const receipt = await this.emails.repeatOf(sha256, channel);
    if (receipt) this.metrics.duplicate();
    return receipt;
  }
}
