import { runService } from '@pp/platform/boot';
import { DashboardConfig } from './dashboard.config';

runService({
  name: 'dashboard',
  config: DashboardConfig,
  parts: async () => (await import('./service-parts')).serviceParts,
});
