import { BaseConfig, WithDatabase, WithRedis } from '@pp/platform';

export class WebhooksConfig extends WithRedis(WithDatabase(BaseConfig)) {}
