import type { DependencyHealth } from '@pp/contracts';

/** Reasons worded by this code, naming nothing but components and deadlines, so they may be shown as they are. */
const OWN_REASON = /^(no answer within \d+ ms|dependencies down: [a-z, -]+)$/;
const TIMED_OUT = /did not answer within (\d+) ms$/;

/**
 * What /readyz (public) shows of one component: up or down, latency, and a
 * generic reason. Driver and bus messages are replaced: they can name hosts,
 * addresses, subjects or versions an outsider should not learn.
 */
export function publicHealth(health: DependencyHealth): DependencyHealth {
  if (health.status === 'up' || health.error === undefined) return { status: health.status, latency_ms: health.latency_ms };
  const timedOut = TIMED_OUT.exec(health.error);
  const reason = OWN_REASON.test(health.error) ? health.error : timedOut ? `no answer within ${timedOut[1]} ms` : 'not answering';
  return { status: health.status, latency_ms: health.latency_ms, error: reason };
}
