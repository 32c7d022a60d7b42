import { Module } from '@nestjs/common';
import { LivenessController } from '@pp/platform';
import { HealthController } from './health.controller';
import { ReadinessService } from './readiness.service';

@Module({ controllers: [LivenessController, HealthController], providers: [ReadinessService] })
export class HealthModule {}
