import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ReadinessService, type ReadinessReport } from './readiness.service';

/** Readiness for load balancers, orchestrators and the launcher (liveness: the platform's LivenessController). */
@Controller()
export class HealthController {
  constructor(private readonly readiness: ReadinessService) {}

  /** 200 when Postgres, Redis, NATS and every service answer in time; 503 with the same report otherwise. */
  @Get('readyz')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<ReadinessReport> {
    const report = await this.readiness.check();
    reply.status(report.status === 'ready' ? 200 : 503);
    return report;
  }
}
