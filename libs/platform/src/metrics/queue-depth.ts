import type { Queue } from 'bullmq';
import { QUEUE_JOBS } from './metric-catalog';
import type { ServiceMetrics } from './service-metrics';

/** The job states reported: what waits (waiting, delayed), what runs, and what gave up (failed). */
export const QUEUE_STATES = ['waiting', 'delayed', 'active', 'failed'] as const;

/** Reports a BullMQ queue's job counts at each scrape (one Redis round trip), labelled with the queue's name without namespace. */
export function watchQueueDepth(metrics: ServiceMetrics, queue: Pick<Queue, 'name' | 'getJobCounts'>): void {
  metrics.readAtScrape(QUEUE_JOBS, async () => {
    const counts = await queue.getJobCounts(...QUEUE_STATES);
    return QUEUE_STATES.map((state) => ({ labels: { queue: queue.name, state }, value: counts[state] ?? 0 }));
  });
}
