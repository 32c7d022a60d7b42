import { Controller, type Type } from '@nestjs/common';
import { healthSubject, type ServiceHealthReply, type ServiceName } from '@pp/contracts';
import { Handles } from '../nats/handles.decorator';
import { HealthService } from './health.service';

/** A controller answering `health.<service>`; the subject is per service, so the class is made per service. */
export function healthControllerFor(service: ServiceName): Type<unknown> {
  @Controller()
  class HealthController {
    constructor(private readonly health: HealthService) {}

    @Handles(healthSubject(service))
    check(): Promise<ServiceHealthReply> {
      return this.health.report();
    }
  }
  return HealthController;
}
