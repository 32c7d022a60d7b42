import { Module } from '@nestjs/common';
import { LivenessController, PodReadinessController } from '@pp/platform';
import { HealthController } from './health.controller';
import { ReadinessService } from './readiness.service';

@Module({ controllers: [LivenessController, PodReadinessController, HealthController], providers: [ReadinessService] })
export class HealthModule {}
