export * from './checkout-preview';
export * from './checkout-metadata.policy';
export * from './checkout-session.events';
export * from './checkout-session.subjects';
export * from './checkout-session.views';
export * from './create-checkout-session.body';
