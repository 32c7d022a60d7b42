import type { RecordAuditEntryCommand } from '@pp/contracts';
import { JsonLogger } from '../logging/json-logger';
import { AUDIT_ENTRIES_UNRECORDED } from '../metrics/metric-catalog';
import { ServiceMetrics } from '../metrics/service-metrics';
import { storeAuditEntry, unrecordedAuditEntries } from './store-audit-entry';

const entry: RecordAuditEntryCommand = {
  id: 'aud_1',
  actor_id: 'usr_1',
  actor_email: 'owner@shop.example',
  actor_role: 'owner',
  merchant_id: 'mer_1',
  livemode: true,
  action: 'refund.requested',
  target_id: 'rf_1',
  outcome: 'success',
  detail: null,
  request_id: 'req-1',
  address: '203.0.113.7',
  at: 0,
};

describe('storing an audit entry (storeAuditEntry)', () => {
  const logged: Record<string, unknown>[] = [];
  let metrics: ServiceMetrics;
  const unrecordedLine = async () => (await metrics.text()).split('\n').find((line) => line.startsWith(`${AUDIT_ENTRIES_UNRECORDED.name}{`));
  const store = (tries: (attempt: number) => Promise<unknown>) => {
    const attemptsAt: number[] = [];
    const stored = storeAuditEntry(
      entry,
      () => {
        attemptsAt.push(performance.now());
        return tries(attemptsAt.length);
      },
      new JsonLogger('dashboard', 'debug', (line) => logged.push(JSON.parse(line))),
      unrecordedAuditEntries(metrics),
    );
    return { stored, attemptsAt };
  };

  beforeEach(() => {
    logged.length = 0;
    metrics = new ServiceMetrics('dashboard', { processMetrics: false });
  });

  it('given a recorder, then its count of unrecorded entries is exported at 0 from the start', async () => {
    unrecordedAuditEntries(metrics);
    expect(await unrecordedLine()).toBe('pp_audit_entries_unrecorded_total{service="dashboard"} 0');
  });

  it('given a store that always refuses, when every attempt failed, then not stored, the whole entry in the error log and the entry counted', async () => {
    const { stored, attemptsAt } = store(() => Promise.reject(new Error('no responders')));
    expect(await stored).toBe(false);
    expect(attemptsAt).toHaveLength(3);
    expect(logged).toEqual([expect.objectContaining({ level: 'error', msg: 'audit entry not recorded', audit_entry: entry, error: 'no responders' })]);
    expect(await unrecordedLine()).toBe('pp_audit_entries_unrecorded_total{service="dashboard"} 1');
  });

  it('given a store that refuses twice (its one replica restarting), then the third attempt stores it, each a pause after the last, and nothing is counted', async () => {
    const { stored, attemptsAt } = store((attempt) => (attempt < 3 ? Promise.reject(new Error('no responders')) : Promise.resolve()));
    expect(await stored).toBe(true);
    const pauses = attemptsAt.slice(1).map((at, i) => Math.round(at - attemptsAt[i]));
    // 150 ms, then 300 ms (by performance.now() a timer may seem to fire a millisecond early).
    expect(pauses[0]).toBeGreaterThanOrEqual(148);
    expect(pauses[1]).toBeGreaterThanOrEqual(298);
    expect(logged).toEqual([]);
    expect(await unrecordedLine()).toBe('pp_audit_entries_unrecorded_total{service="dashboard"} 0');
  });
});
