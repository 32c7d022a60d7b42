import { BaseConfig, WithDatabase } from '@pp/platform';

export class LedgerConfig extends WithDatabase(BaseConfig) {}
