import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ReadinessService, type ReadinessReport } from './readiness.service';

/** Liveness and readiness for load balancers, orchestrators and the launcher. */
@Controller()
export class HealthController {
  constructor(private readonly readiness: ReadinessService) {}

  /** The process is up and serving HTTP; says nothing about its dependencies. */
  @Get('healthz')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** 200 when Postgres, Redis, NATS and every service answer in time; 503 with the same report otherwise. */
  @Get('readyz')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<ReadinessReport> {
    const report = await this.readiness.check();
    reply.status(report.status === 'ready' ? 200 : 503);
    return report;
  }
}
