import type { ServiceName } from './services';

export type HealthStatus = 'up' | 'down';

export interface DependencyHealth {
  status: HealthStatus;
  latency_ms: number;
  error?: string;
}

/** What every service answers on its health subject. */
export interface ServiceHealthReply {
  service: ServiceName;
  status: HealthStatus;
  /**
   * What a liveness probe reads: the checks a restart could mend, without those that only say whether the service
   * can serve (a webhooks replica that cannot read its stream). Absent from a service older than the field.
   */
  live?: HealthStatus;
  instance: string;
  uptime_ms: number;
  dependencies: Record<string, DependencyHealth>;
}

export interface HealthSubjects {
  [subject: `health.${string}`]: { request: Record<string, never>; reply: ServiceHealthReply };
}

export const healthSubject = (service: ServiceName): `health.${ServiceName}` => `health.${service}`;
