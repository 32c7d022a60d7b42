import type { NatsConnection } from 'nats';
import { NATS_MESSAGES } from './metric-catalog';
import type { ServiceMetrics } from './service-metrics';

/**
 * The messages on the service's NATS connection, from the client's own
 * counts (`stats()`), read at each scrape: what NATS carries for it, hop by
 * hop, so a change in how services talk shows in messages, not only in CPU.
 */
export function watchNatsTraffic(metrics: ServiceMetrics, nc: Pick<NatsConnection, 'stats'>): void {
  metrics.totalAtScrape(NATS_MESSAGES, () => {
    const { outMsgs, inMsgs } = nc.stats();
    return [
      { labels: { direction: 'sent' }, value: outMsgs },
      { labels: { direction: 'received' }, value: inMsgs },
    ];
  });
}
