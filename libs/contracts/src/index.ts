// Contract classes carry class-validator/class-transformer decorators that read design-time type metadata.
import 'reflect-metadata';

export * from './bus-access';
export * from './checkout-page';
export * from './checkout-sessions';
export * from './email-address';
export * from './errors';
export * from './health';
export * from './http-url';
export * from './identity';
export * from './ingest';
export * from './ledger';
export * from './merchant-events';
export * from './list-page';
export * from './merchant-scope';
export * from './idempotency';
export * from './payments';
export * from './plain-text';
export * from './refunds';
export * from './services';
export * from './subjects';
export * from './utc-timestamp';
export * from './webhooks';
