export * from './json-logger';
export * from './request-context';
export * from './failure-streak';
