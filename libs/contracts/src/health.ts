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
  instance: string;
  uptime_ms: number;
  dependencies: Record<string, DependencyHealth>;
}

export interface HealthSubjects {
  [subject: `health.${string}`]: { request: Record<string, never>; reply: ServiceHealthReply };
}

export const healthSubject = (service: ServiceName): `health.${ServiceName}` => `health.${service}`;
