import type { AttemptOrigin } from '../delivery/attempt-origin';
import type { DueDelivery, EventToRecord, RecordedEvent } from '../delivery/delivery.repository';

/**
 * A merchant event on its way to Postgres with the others that arrived with it. Its origin is the consumption of
 * its message (the parent of its first attempts' spans) and the request that caused the event.
 */
export interface Intake extends AttemptOrigin {
  toRecord: EventToRecord;
  /** Set once recorded: its deliveries not attempted yet (those claimed as it was recorded are already under way). */
  due?: DueDelivery[];
  /** Set when recording it failed: its message is sent again later. */
  error?: Error;
}

/**
 * Records a batch with one call of `record` (one statement, which may also
 * claim first attempts: DeliveryAttemptJob.recordAndStart), setting each
 * intake's deliveries not attempted yet; when that fails, records each intake
 * on its own, so one event that cannot be stored holds back no other: only
 * it gets the error.
 */
export async function recordIntakes(batch: readonly Intake[], record: (intakes: readonly Intake[]) => Promise<RecordedEvent[]>): Promise<void> {
  try {
    const recorded = await record(batch);
    batch.forEach((intake, i) => (intake.due = recorded[i].due));
  } catch (error) {
    if (batch.length === 1) batch[0].error = error instanceof Error ? error : new Error(String(error));
    else for (const intake of batch) await recordIntakes([intake], record);
  }
}
