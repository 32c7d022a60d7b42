import { runService } from '@pp/platform';
import { DashboardConfig } from './dashboard.config';
import { DashboardModule } from './dashboard.module';

runService({
  name: 'dashboard',
  config: DashboardConfig,
  module: DashboardModule,
  http: { port: (config) => config.DASHBOARD_PORT },
});
