export * from './allowed-methods';
export * from './error-status';
export * from './client-error';
export * from './framework-error.handler';
export * from './json-error.filter';
export * from './malformed-request.handler';
export * from './request-id';
export * from './request-deadline';
