import { runService } from '@pp/platform';
import { DashboardConfig } from './dashboard.config';
import { DashboardModule } from './dashboard.module';
import { configureHttp } from './http/configure-http';

runService({
  name: 'dashboard',
  config: DashboardConfig,
  module: DashboardModule,
  http: { port: (config) => config.DASHBOARD_PORT, configure: configureHttp },
});
