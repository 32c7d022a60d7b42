import { BaseConfig, WithMetricsPort } from '@pp/platform/config';

export class RefundsConfig extends WithMetricsPort(BaseConfig) {}
