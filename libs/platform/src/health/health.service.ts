import { hostname } from 'node:os';
import type { DependencyHealth, ServiceHealthReply, ServiceName } from '@pp/contracts';

export type DependencyCheck = () => Promise<unknown>;

export interface DependencyCheckOptions {
  /**
   * The process goes on serving without this dependency, degraded (the
   * gateway without Redis: requests uncounted by the rate limit): it is
   * reported, but does not take the replica out of rotation (readiness). A
   * dependency every replica shares would otherwise take them all out at
   * once, an outage where the product promises a degraded service.
   */
  servesWithout?: boolean;
}

/** Collects the dependency checks a service registers and answers its health request. */
export class HealthService {
  private readonly checks = new Map<string, DependencyCheck>();
  private readonly servedWithout = new Set<string>();
  private readonly startedAt = Date.now();
  private readonly instance = `${hostname()}:${process.pid}`;

  constructor(
    private readonly service: ServiceName,
    private readonly checkTimeoutMs = 1000,
  ) {}

  register(name: string, check: DependencyCheck, options: DependencyCheckOptions = {}): void {
    this.checks.set(name, check);
    if (options.servesWithout) this.servedWithout.add(name);
  }

  /** Every dependency's check; down when any is. */
  report(): Promise<ServiceHealthReply> {
    return this.reportJudgedBy(() => true);
  }

  /** Every dependency's check, as report(); down only when one the process cannot serve without is (pod readiness). */
  readiness(): Promise<ServiceHealthReply> {
    return this.reportJudgedBy((name) => !this.servedWithout.has(name));
  }

  private async reportJudgedBy(needed: (name: string) => boolean): Promise<ServiceHealthReply> {
    const entries = await Promise.all(
      [...this.checks].map(async ([name, check]) => [name, await timedCheck(check, this.checkTimeoutMs)] as const),
    );
    return {
      service: this.service,
      status: entries.every(([name, result]) => result.status === 'up' || !needed(name)) ? 'up' : 'down',
      instance: this.instance,
      uptime_ms: Date.now() - this.startedAt,
      dependencies: Object.fromEntries(entries),
    };
  }
}

/** Runs one check with a deadline and measures it. */
export async function timedCheck(check: DependencyCheck, timeoutMs: number): Promise<DependencyHealth> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { status: 'up', latency_ms: Math.round(performance.now() - started) };
  } catch (error) {
    return {
      status: 'down',
      latency_ms: Math.round(performance.now() - started),
      error: error instanceof Error ? error.message : String(error),
    };
  } finally {
    clearTimeout(timer);
  }
}
