export * from './platform.module';
export * from './service-definition';
export * from './start-service';
export * from './tokens';
export * from './node-flags';
export * from './every-interval';
