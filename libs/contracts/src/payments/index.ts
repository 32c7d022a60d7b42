export * from './admin-payments.query';
export * from './payment.events';
export * from './payment-summary.query';
export * from './payment.views';
export * from './payments.subjects';
export * from './simulate-payment.body';
export * from './transfer-evidence';
