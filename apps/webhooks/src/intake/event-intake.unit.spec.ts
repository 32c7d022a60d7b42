import { ROOT_CONTEXT } from '@opentelemetry/api';
import type { DueDelivery, RecordedEvent } from '../delivery/delivery.repository';
import { type Intake, recordIntakes } from './event-intake';

const intake = (id: string): Intake => ({
  toRecord: {
    event: { id, merchant_id: 'mer_1', livemode: false, type: 'payment.confirmed', body: '{}', trace: null, created_at: '2026-11-24T00:00:00.000Z' },
    firstAttemptAt: new Date('2026-11-24T00:00:00.000Z'),
  },
  queuedBy: ROOT_CONTEXT,
  requestId: `req_${id}`,
});

const dueFor = (id: string): DueDelivery[] => [{ id: `dlv_${id}`, attempt: 1, next_attempt_at: new Date('2026-11-24T00:00:00.000Z'), endpoint_id: 'we_intake' }];

/** A store that records whole batches, refusing any batch holding one of `refused`, and counts its calls. */
const store = (refused: string[] = []) => {
  const calls: string[][] = [];
  const recordEvents = async (intakes: readonly Intake[]): Promise<RecordedEvent[]> => {
    const events = intakes.map((item) => item.toRecord.event);
    calls.push(events.map((event) => event.id));
    const bad = events.find((event) => refused.includes(event.id));
    if (bad) throw new Error(`cannot store ${bad.id}`);
    return events.map((event) => ({ claimed: [], due: dueFor(event.id) }));
  };
  return { calls, recordEvents };
};

describe('recordIntakes', () => {
  it('given events that arrived together, when they are recorded, then one call stores them all and each gets its own deliveries', async () => {
    const batch = ['a', 'b', 'c'].map(intake);
    const { calls, recordEvents } = store();

    await recordIntakes(batch, recordEvents);

    expect(calls).toEqual([['a', 'b', 'c']]);
    expect(batch.map((item) => item.due)).toEqual([dueFor('a'), dueFor('b'), dueFor('c')]);
    expect(batch.every((item) => item.error === undefined)).toBe(true);
  });

  it('given one event that cannot be stored, when the batch fails, then the others are stored one by one and only it carries the error', async () => {
    const batch = ['a', 'bad', 'c'].map(intake);
    const { calls, recordEvents } = store(['bad']);

    await recordIntakes(batch, recordEvents);

    expect(calls).toEqual([['a', 'bad', 'c'], ['a'], ['bad'], ['c']]);
    expect(batch.map((item) => item.due)).toEqual([dueFor('a'), undefined, dueFor('c')]);
    expect(batch.map((item) => item.error?.message)).toEqual([undefined, 'cannot store bad', undefined]);
  });

  it('given the store is away, when a batch is recorded, then every event carries the error and none has deliveries', async () => {
    const batch = ['a', 'b'].map(intake);
    const recordEvents = async (): Promise<RecordedEvent[]> => {
      throw new Error('connection refused');
    };

    await recordIntakes(batch, recordEvents);

    expect(batch.map((item) => [item.due, item.error?.message])).toEqual([
      [undefined, 'connection refused'],
      [undefined, 'connection refused'],
    ]);
  });
});
