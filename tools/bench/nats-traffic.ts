import { sampleSum, type Scrape } from '@pp/testing';
import { sinceSameProcess } from './since-same-process';

/**
 * Each service's messages on NATS during a path, from its own
 * `pp_nats_messages_total` (the NATS client's counts, read at the scrape),
 * per request: how many hops a piece of work takes, which the NATS server's
 * CPU per request follows (docs/PERFORMANCE.md).
 */

/** One process's messages since it connected. */
export interface NatsTotals {
  pid: number;
  sent: number;
  received: number;
}

const METRIC = 'pp_nats_messages_total';

/** The totals in one service's metrics (zeros when it has none). */
export function natsTotalsOf(scrape: Scrape, pid: number): NatsTotals {
  return { pid, sent: sampleSum(scrape, METRIC, { direction: 'sent' }), received: sampleSum(scrape, METRIC, { direction: 'received' }) };
}

export interface NatsCost {
  /** Messages each service put on NATS per request of the path. */
  nats_sent_per_request: Record<string, number>;
  /** Messages NATS delivered to each service per request of the path. */
  nats_received_per_request: Record<string, number>;
}

/** What each service sent and received between two readings; a process that started in between counts from zero. */
export function natsTrafficBetween(before: Map<string, NatsTotals>, after: Map<string, NatsTotals>, requests: number): NatsCost {
  const cost: NatsCost = { nats_sent_per_request: {}, nats_received_per_request: {} };
  const perRequest = (count: number) => (requests > 0 ? Math.round((count * 100) / requests) / 100 : 0);
  for (const [service, now, earlier] of sinceSameProcess(before, after, { sent: 0, received: 0 })) {
    cost.nats_sent_per_request[service] = perRequest(now.sent - earlier.sent);
    cost.nats_received_per_request[service] = perRequest(now.received - earlier.received);
  }
  return cost;
}
