import { watchNatsTraffic } from './nats-traffic';
import { ServiceMetrics } from './service-metrics';

const seriesOf = async (metrics: ServiceMetrics, name: string) => (await metrics.text()).split('\n').filter((line) => line.startsWith(`${name}{`));

describe('a service’s NATS traffic', () => {
  describe('given a connection that has sent and received messages', () => {
    it('then each scrape shows its running totals by direction, as counters', async () => {
      const stats = { outMsgs: 3, inMsgs: 5, outBytes: 300, inBytes: 512 };
      const metrics = new ServiceMetrics('ledger', { processMetrics: false });
      watchNatsTraffic(metrics, { stats: () => ({ ...stats }) });

      expect(await seriesOf(metrics, 'pp_nats_messages_total')).toEqual([
        'pp_nats_messages_total{direction="sent",service="ledger"} 3',
        'pp_nats_messages_total{direction="received",service="ledger"} 5',
      ]);
      stats.outMsgs = 10;
      expect(await seriesOf(metrics, 'pp_nats_messages_total')).toEqual([
        'pp_nats_messages_total{direction="sent",service="ledger"} 10',
        'pp_nats_messages_total{direction="received",service="ledger"} 5',
      ]);
      expect(await metrics.text()).toContain('# TYPE pp_nats_messages_total counter');
    });
  });
});
