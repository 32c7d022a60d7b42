export * from './verify-webhook';
export * from './webhook-event-body';
export * from './webhook-signature';
