import { parsePrometheusText, type Scrape, type TestStack } from '@pp/testing';
import { type GcCost, gcPausesBetween, gcTotalsOf } from './gc-pauses';
import { type NatsCost, natsTotalsOf, natsTrafficBetween } from './nats-traffic';

/**
 * Each service's own Prometheus metrics at one moment, scraped outside the
 * CPU samples (rendering them is not a path's work): what the services count
 * themselves and /proc cannot tell, their GC pauses and their NATS traffic.
 */
export interface ServiceReading {
  /** The process that answered: a service restarted between two readings counts from zero. */
  pid: number;
  metrics: Scrape;
}

export type ServiceScrape = Map<string, ServiceReading>;

/** Scrapes every service of the stack (each within 2 s; one that does not answer is left out). */
export async function scrapeServices(stack: TestStack): Promise<ServiceScrape> {
  const scrape: ServiceScrape = new Map();
  await Promise.all(
    stack.processes().map(async (proc) => {
      const pid = proc.pid;
      if (pid === undefined) return;
      try {
        const response = await fetch(stack.metricsUrl(proc.service), { signal: AbortSignal.timeout(2000) });
        if (response.ok) scrape.set(proc.service, { pid, metrics: parsePrometheusText(await response.text()) });
      } catch {
        // A service restarting (the fan-out path restarts webhooks) has no figure this time.
      }
    }),
  );
  return scrape;
}

export type ServiceCost = GcCost & NatsCost;

/** What each service's own metrics say a path cost per request, between two scrapes. */
export function serviceCostBetween(before: ServiceScrape, after: ServiceScrape, requests: number): ServiceCost {
  const read = <T>(scrape: ServiceScrape, totalsOf: (metrics: Scrape, pid: number) => T) =>
    new Map([...scrape].map(([service, { pid, metrics }]) => [service, totalsOf(metrics, pid)]));
  return {
    ...gcPausesBetween(read(before, gcTotalsOf), read(after, gcTotalsOf), requests),
    ...natsTrafficBetween(read(before, natsTotalsOf), read(after, natsTotalsOf), requests),
  };
}
