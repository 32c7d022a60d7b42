export * from './checkout-sessions';
export * from './errors';
export * from './health';
export * from './merchant-scope';
export * from './services';
export * from './subjects';
