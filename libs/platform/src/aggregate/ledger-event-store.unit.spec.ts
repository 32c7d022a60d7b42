import type { BusClient } from '../nats';
import { LedgerEventStore } from './ledger-event-store';

describe('LedgerEventStore: what an append asks of the ledger', () => {
  const sent: Array<{ subject: string; payload: Record<string, unknown> }> = [];
  const bus = { request: async (subject: string, payload: Record<string, unknown>) => (sent.push({ subject, payload }), { streams: [], replayed: false }) } as unknown as BusClient;
  const streams = [{ stream_id: 'checkout_session-cs1', expected_version: 1, events: [{ type: 'session.completed', schema_version: 1, data: {} }] }];
  const scope = { merchant_id: 'mer_1', livemode: true };

  beforeEach(() => {
    sent.length = 0;
  });

  it('given a moment to commit before, then the ledger is sent it as commit_before, to the millisecond in UTC', async () => {
    await new LedgerEventStore(bus, 'ledger.append-streams.v1').appendStreams(streams, scope, { commitBefore: new Date('2026-12-07T20:30:00.123Z') });
    expect(sent).toEqual([{ subject: 'ledger.append-streams.v1', payload: expect.objectContaining({ streams, commit_before: '2026-12-07T20:30:00.123Z' }) }]);
  });

  it('given none, then the request carries no commit_before', async () => {
    await new LedgerEventStore(bus, 'ledger.append-streams.v1').appendStreams(streams, scope);
    expect(sent[0].payload).not.toHaveProperty('commit_before');
  });
});
