export * from './refund.events';
export * from './refund.views';
export * from './refunds.subjects';
