import { BaseConfig } from '@pp/platform';

export class RefundsConfig extends BaseConfig {}
