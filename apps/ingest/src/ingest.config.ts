import { BaseConfig, WithDatabase } from '@pp/platform';

export class IngestConfig extends WithDatabase(BaseConfig) {}
