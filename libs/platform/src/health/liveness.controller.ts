import { Controller, Get } from '@nestjs/common';

/**
 * GET /healthz of every HTTP app: the process is up and serving HTTP, nothing
 * about its dependencies (the path the compose health checks and the
 * Kubernetes startup and liveness probes of the gateway, checkout and
 * dashboard call; their readiness probes call PodReadinessController's).
 */
@Controller()
export class LivenessController {
  @Get('healthz')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
