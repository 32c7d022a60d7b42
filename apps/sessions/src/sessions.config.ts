import { BaseConfig, WithRedis, WithCheckoutUrls } from '@pp/platform';

export class SessionsConfig extends WithCheckoutUrls(WithRedis(BaseConfig)) {}
