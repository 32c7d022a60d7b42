import { ErrorCode, type MerchantScope } from '@pp/contracts';
import { BusClient } from '@pp/platform';
import { TestStack } from '@pp/testing';
import type { Pool } from 'pg';

/*
 * ledger.merchant-events.list.v1 oldest first, the event stream's forward
 * read of the log. The read model is seeded directly, so each event's
 * position (log order) and time are the test's to choose.
 */

const T = Date.UTC(2026, 10, 23, 18, 0, 0);
const MERCHANT: MerchantScope = { merchant_id: 'mer_forward', livemode: false };

describe('ledger.merchant-events.list.v1 oldest first', () => {
  let stack: TestStack;
  let bus: BusClient;
  let db: Pool;
  let nextPosition = 1_000_000;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['ledger'], label: 'mevtforward' });
    bus = await stack.bus();
    db = await stack.sql();
  });
  afterAll(() => stack?.stop());

  /** Appends events to a merchant's log, in this order, created at the given offsets from T (ms); answers their ids. */
  const append = async (scope: MerchantScope, offsetsMs: number[]): Promise<string[]> => {
    const ids: string[] = [];
    for (const offset of offsetsMs) {
      const position = nextPosition++;
      const id = `evt_forward${position}`;
      await db.query(
        `INSERT INTO ledger.merchant_events (id, position, merchant_id, livemode, type, data, stream_id, created_at)
         VALUES ($1, $2, $3, $4, 'payment.confirmed', '{}', $1, $5)`,
        [id, position, scope.merchant_id, scope.livemode, new Date(T + offset)],
      );
      ids.push(id);
    }
    return ids;
  };

  const page = (query: { starting_after?: string; created_since?: string; limit?: number }, scope = MERCHANT) =>
    bus.request('ledger.merchant-events.list.v1', { ...scope, order: 'oldest_first', limit: 2, ...query });
  const ids = (answer: { data: Array<{ id: string }> }) => answer.data.map((event) => event.id);

  it('pages the merchant’s log of one mode forward, each page after the last event of the one before', async () => {
    const log = await append(MERCHANT, [-60_000, -40_000, -20_000, 0, 1000]);
    await append({ ...MERCHANT, livemode: true }, [-50_000]);
    await append({ merchant_id: 'mer_other', livemode: false }, [-30_000]);

    const first = await page({});
    expect([ids(first), first.has_more]).toEqual([log.slice(0, 2), true]);
    const second = await page({ starting_after: log[1] });
    expect([ids(second), second.has_more]).toEqual([log.slice(2, 4), true]);
    const last = await page({ starting_after: log[3] });
    expect([ids(last), last.has_more]).toEqual([log.slice(4), false]);

    // The list API keeps newest first.
    expect(ids(await bus.request('ledger.merchant-events.list.v1', { ...MERCHANT, limit: 2 }))).toEqual([log[4], log[3]]);
  });

  it('begins at a time after the newest event, in log order, created before it (where a newest-first read back to it stops)', async () => {
    const scope = { merchant_id: 'mer_window', livemode: false };
    const log = await append(scope, [-60_000, -20_000, -12_000, -3000, 0]);
    expect(ids(await page({ created_since: new Date(T - 10_000).toISOString(), limit: 10 }, scope))).toEqual(log.slice(3));
    expect(ids(await page({ created_since: new Date(T - 12_000).toISOString(), limit: 10 }, scope))).toEqual(log.slice(2));
    // Before every event: the whole log; after every event: nothing.
    expect(ids(await page({ created_since: new Date(T - 3_600_000).toISOString(), limit: 10 }, scope))).toEqual(log);
    expect(await page({ created_since: new Date(T + 1).toISOString() }, scope)).toEqual({ data: [], has_more: false });
  });

  it('refuses to continue after another merchant’s or mode’s event', async () => {
    const [theirs] = await append({ merchant_id: 'mer_someone_else', livemode: false }, [0]);
    await expect(page({ starting_after: theirs })).rejects.toMatchObject({ code: ErrorCode.NotFound, message: 'Event not found' });
    await expect(page({ starting_after: theirs }, { ...MERCHANT, livemode: true })).rejects.toMatchObject({ code: ErrorCode.NotFound });
  });
});
