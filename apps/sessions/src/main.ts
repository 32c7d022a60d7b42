import { runService } from '@pp/platform';
import { SessionsConfig } from './sessions.config';
import { SessionsModule } from './sessions.module';

runService({
  name: 'sessions',
  config: SessionsConfig,
  module: SessionsModule,
  metricsPort: (config) => config.METRICS_PORT,
});
