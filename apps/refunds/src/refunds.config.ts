import { BaseConfig, WithMetricsPort } from '@pp/platform';

export class RefundsConfig extends WithMetricsPort(BaseConfig) {}
