export * from './health.controller';
export * from './health.service';
export * from './liveness.controller';
export * from './pod-readiness';
export * from './pod-readiness.controller';
export * from './recent-answer';
