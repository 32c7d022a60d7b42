export * from './verify-webhook';
export * from './webhook-signature';
