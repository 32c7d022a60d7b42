import type { PathCost } from './process-cpu';
import { quietDetail, type QuietWait } from './quiet-wait';
import type { Row } from './report';
import type { LatencyResult } from './webhook-latency';

export const WEBHOOK_LATENCY_PATH = 'simulate-payment → signed webhook received';

/**
 * The webhook row, and the warning to print with it when deliveries did not verify: those are not timed (the
 * payment's latency runs to a delivery that verifies), so a run with any measured retries, not the path.
 */
export function webhookLatencyRow(measured: { result: LatencyResult; quiet: QuietWait } & PathCost, gapMs: number): { row: Row; warning?: string } {
  const { result, quiet, ...cost } = measured;
  const row: Row = {
    key: 'webhook-latency',
    path: WEBHOOK_LATENCY_PATH,
    throughput: '-',
    p50_ms: result.p50_ms,
    p99_ms: result.p99_ms,
    max_ms: result.max_ms,
    baseline: 'p50 ≤ 10, p99 ≤ 50 target',
    ratio: '-',
    ...cost,
    detail: {
      samples: result.samples,
      warmup_payments: result.warmup_payments,
      unverified: result.unverified,
      gap_ms: gapMs,
      ...quietDetail(quiet),
      cpu_counts: 'session creation + simulate-payment + delivery, per payment (the untimed warm-up payments included)',
    },
  };
  if (result.unverified === 0) return { row };
  return {
    row,
    warning: `warning: ${WEBHOOK_LATENCY_PATH}: ${result.unverified} deliveries whose signatures did not verify, not timed (each payment was timed to one that verified; see the row's detail)`,
  };
}
