import type { LatencyResult } from './webhook-latency';
import { webhookLatencyRow } from './webhook-latency-row';

const result = (unverified: number): LatencyResult => ({ samples: 200, warmup_payments: 10, p50_ms: 4.2, p99_ms: 23.1, max_ms: 40.5, unverified, timed_event_ids: [] });
const cost = { cpu_ms_per_request: { total: 1 }, writes_per_request: { total: 1 }, cpu_wait_ms_per_request: { total: 0 } };
const quiet = { waited_ms: 2000, quiet: true };

describe('the webhook latency row', () => {
  it('given deliveries whose signatures did not verify, then the row counts them and a warning says they were not timed', () => {
    const { row, warning } = webhookLatencyRow({ result: result(3), quiet, ...cost }, 0);

    expect(row).toMatchObject({ key: 'webhook-latency', p50_ms: 4.2, p99_ms: 23.1, max_ms: 40.5, detail: { unverified: 3, quiet_wait_ms: 2000, quiet_before: true } });
    // The timed payments' event ids pick their traces (webhook-traces.ts); they are not figures of the row.
    expect(row.detail).not.toHaveProperty('timed_event_ids');
    expect(warning).toBe(
      "warning: simulate-payment → signed webhook received: 3 deliveries whose signatures did not verify, not timed (each payment was timed to one that verified; see the row's detail)",
    );
  });

  it('given every delivery verified, then there is no warning', () => {
    expect(webhookLatencyRow({ result: result(0), quiet, ...cost }, 11000)).toEqual({ row: expect.objectContaining({ detail: expect.objectContaining({ gap_ms: 11000 }) }) });
  });
});
