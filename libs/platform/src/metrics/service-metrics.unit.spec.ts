import { CONSUMER_ACK_PENDING, CONSUMER_PENDING, QUEUE_JOBS, WEBHOOK_ATTEMPTS } from './metric-catalog';
import { ServiceMetrics } from './service-metrics';

const linesOf = async (metrics: ServiceMetrics, name: string) => (await metrics.text()).split('\n').filter((line) => line.startsWith(`${name}{`));

describe('a service’s metrics registry', () => {
  describe('given a metric asked for twice', () => {
    it('then both get the one metric, whose series carry the service label', async () => {
      const metrics = new ServiceMetrics('webhooks', { processMetrics: false });
      metrics.counter(WEBHOOK_ATTEMPTS).inc({ outcome: 'success', response: '2xx' });
      metrics.counter(WEBHOOK_ATTEMPTS).inc({ outcome: 'success', response: '2xx' });
      expect(await linesOf(metrics, WEBHOOK_ATTEMPTS.name)).toEqual(['pp_webhook_attempts_total{outcome="success",response="2xx",service="webhooks"} 2']);
    });
  });

  describe('given process metrics', () => {
    it('then the scrape holds Node’s CPU, memory and event-loop series', async () => {
      const text = await new ServiceMetrics('refunds').text();
      for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds']) expect(text).toContain(`\n${name}{service="refunds"}`);
    });
  });

  describe('given two scrape-time readers feeding one gauge', () => {
    it('then each scrape shows what both read then, and nothing stale', async () => {
      const metrics = new ServiceMetrics('sessions', { processMetrics: false });
      let waiting = 3;
      metrics.readAtScrape(QUEUE_JOBS, async () => [{ labels: { queue: 'a', state: 'waiting' }, value: waiting }]);
      metrics.readAtScrape(QUEUE_JOBS, async () => [{ labels: { queue: 'b', state: 'waiting' }, value: 7 }]);
      expect(await linesOf(metrics, QUEUE_JOBS.name)).toEqual([
        'pp_queue_jobs{queue="a",state="waiting",service="sessions"} 3',
        'pp_queue_jobs{queue="b",state="waiting",service="sessions"} 7',
      ]);
      waiting = 0;
      expect(await linesOf(metrics, QUEUE_JOBS.name)).toContain('pp_queue_jobs{queue="a",state="waiting",service="sessions"} 0');
    });
  });

  describe('given a reader that fails, and one that does not answer in time', () => {
    it('then their series are absent from that scrape while the others are there', async () => {
      const metrics = new ServiceMetrics('webhooks', { processMetrics: false, readTimeoutMs: 50 });
      let fail = false;
      metrics.readAtScrape(QUEUE_JOBS, async () => {
        if (fail) throw new Error('Redis is away');
        return [{ labels: { queue: 'flaky', state: 'waiting' }, value: 1 }];
      });
      metrics.readAtScrape(QUEUE_JOBS, () => new Promise(() => undefined));
      metrics.readAtScrape(QUEUE_JOBS, async () => [{ labels: { queue: 'fine', state: 'failed' }, value: 2 }]);
      expect(await linesOf(metrics, QUEUE_JOBS.name)).toEqual([
        'pp_queue_jobs{queue="flaky",state="waiting",service="webhooks"} 1',
        'pp_queue_jobs{queue="fine",state="failed",service="webhooks"} 2',
      ]);
      fail = true;
      expect(await linesOf(metrics, QUEUE_JOBS.name)).toEqual(['pp_queue_jobs{queue="fine",state="failed",service="webhooks"} 2']);
    });
  });
  describe('given counter label values to start at zero', () => {
    it('then every combination is exported at 0 before anything is counted', async () => {
      const metrics = new ServiceMetrics('webhooks', { processMetrics: false });
      metrics.counter(WEBHOOK_ATTEMPTS, { startAtZero: { outcome: ['success', 'exhausted'], response: ['2xx', 'none'] } });
      expect(await linesOf(metrics, WEBHOOK_ATTEMPTS.name)).toEqual([
        'pp_webhook_attempts_total{outcome="success",response="2xx",service="webhooks"} 0',
        'pp_webhook_attempts_total{outcome="success",response="none",service="webhooks"} 0',
        'pp_webhook_attempts_total{outcome="exhausted",response="2xx",service="webhooks"} 0',
        'pp_webhook_attempts_total{outcome="exhausted",response="none",service="webhooks"} 0',
      ]);
    });
  });

  describe('given one reader feeding two gauges', () => {
    const labels = { stream: 'EVENTS', consumer: 'webhooks' };

    it('then one scrape calls it once and both gauges show its values', async () => {
      const metrics = new ServiceMetrics('webhooks', { processMetrics: false });
      let reads = 0;
      metrics.readAtScrapeTogether({ pending: CONSUMER_PENDING, ackPending: CONSUMER_ACK_PENDING }, async () => {
        reads += 1;
        return { pending: [{ labels, value: 10 * reads }], ackPending: [{ labels, value: reads }] };
      });
      const text = await metrics.text();
      expect(reads).toBe(1);
      expect(text).toContain('pp_jetstream_consumer_pending{stream="EVENTS",consumer="webhooks",service="webhooks"} 10\n');
      expect(text).toContain('pp_jetstream_consumer_ack_pending{stream="EVENTS",consumer="webhooks",service="webhooks"} 1\n');
      await metrics.text();
      expect(reads).toBe(2);
    });
  });

  describe('given a reader whose read does not settle (a slow database) while scrapes come and give up on it', () => {
    const labels = { stream: 'EVENTS', consumer: 'webhooks' };
    type Read = <T>(answer: T) => Promise<T>;

    /** Reads that hang until settle(), then answer (the hung ones too), and later ones answer at once. */
    function slowDatabase() {
      let reads = 0;
      let slow = true;
      const hung: (() => void)[] = [];
      const read: Read = (answer) => {
        reads += 1;
        return slow ? new Promise((resolve) => hung.push(() => resolve(answer))) : Promise.resolve(answer);
      };
      const settle = () => {
        slow = false;
        for (const resume of hung) resume();
      };
      return { read, reads: () => reads, settle };
    }

    it.each([
      ['one gauge’s reader (readAtScrape)', (metrics: ServiceMetrics, read: Read) => metrics.readAtScrape(CONSUMER_PENDING, () => read([{ labels, value: 4 }]))],
      [
        'the reader of two gauges (readAtScrapeTogether)',
        (metrics: ServiceMetrics, read: Read) =>
          metrics.readAtScrapeTogether({ pending: CONSUMER_PENDING, ackPending: CONSUMER_ACK_PENDING }, () => read({ pending: [{ labels, value: 4 }], ackPending: [{ labels, value: 2 }] })),
      ],
    ])('then %s is not run again while its read is in flight, its series absent, and reads again once it settled', async (_reader, register) => {
      const metrics = new ServiceMetrics('webhooks', { processMetrics: false, readTimeoutMs: 20 });
      const database = slowDatabase();
      register(metrics, database.read);
      for (let scrape = 1; scrape <= 3; scrape++) expect([scrape, await linesOf(metrics, CONSUMER_PENDING.name)]).toEqual([scrape, []]);
      expect(database.reads()).toBe(1);
      database.settle();
      await new Promise(setImmediate);
      expect(await linesOf(metrics, CONSUMER_PENDING.name)).toEqual(['pp_jetstream_consumer_pending{stream="EVENTS",consumer="webhooks",service="webhooks"} 4']);
      expect(database.reads()).toBe(2);
    });
  });
});
