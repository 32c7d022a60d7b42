import { runService } from '@pp/platform/boot';
import { LedgerConfig } from './ledger.config';

runService({
  name: 'ledger',
  config: LedgerConfig,
  parts: async () => (await import('./service-parts')).serviceParts,
});
