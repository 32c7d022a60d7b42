export * from './json-logger';
export * from './request-context';
