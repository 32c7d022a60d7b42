import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { NatsConnection } from 'nats';
import { NATS_CONNECTION } from '../app/tokens';
import { HealthService } from './health.service';
import { podReadiness } from './pod-readiness';
import { RecentAnswer } from './recent-answer';

/** Where a web app answers its replica's own readiness (the Kubernetes readiness probes call it). */
export const WEB_APP_READINESS_PATH = '/healthz/ready';

/** A readiness answer this recent answers again, and probes during a check share it: the route is as public as its app. */
export const POD_READINESS_REUSE_MS = 1000;

/**
 * GET /healthz/ready of every HTTP app, for the Kubernetes readiness probe: whether this process can serve, by its
 * own dependencies (podReadiness: its Postgres, its Redis unless it serves without it, its NATS connection), never another
 * service's, so one service down does not take every replica of an app out of rotation. 503 when not ready. The body
 * says only up or down: the checks' errors can name hosts, and the route answers whoever reaches the app.
 */
@Controller()
export class PodReadinessController {
  // Every check has its deadline and catches its error; a failure of the whole is 'down' all the same, never a rejection.
  private readonly answer = new RecentAnswer<'up' | 'down'>(
    () =>
      podReadiness(this.health, this.nc).then(
        (report) => report.status,
        () => 'down' as const,
      ),
    POD_READINESS_REUSE_MS,
  );

  constructor(
    private readonly health: HealthService,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
  ) {}

  @Get(WEB_APP_READINESS_PATH)
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<{ status: 'up' | 'down' }> {
    const status = await this.answer.get();
    reply.status(status === 'up' ? 200 : 503);
    return { status };
  }
}
