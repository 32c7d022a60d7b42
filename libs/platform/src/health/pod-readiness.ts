import type { ServiceHealthReply } from '@pp/contracts';
import type { NatsConnection } from 'nats';
import { type HealthService, timedCheck } from './health.service';

/** How long the readiness probe waits for the NATS server's answer to a ping. */
const NATS_CHECK_MS = 1000;

/**
 * This process's own readiness, for the Kubernetes readiness probes (GET /readyz
 * on a service's metrics port, GET /healthz/ready on a web app's): its registered checks
 * but those it serves without (HealthService.readiness), and its NATS connection, which the bus health request cannot test (a replica
 * cut off from NATS never hears it, and another replica answers instead).
 */
export async function podReadiness(health: HealthService, nc: NatsConnection): Promise<ServiceHealthReply> {
  const [report, nats] = await Promise.all([health.readiness(), timedCheck(() => nc.flush(), NATS_CHECK_MS)]);
  return { ...report, status: report.status === 'up' && nats.status === 'up' ? 'up' : 'down', dependencies: { ...report.dependencies, nats } };
}
