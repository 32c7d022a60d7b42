export * from './browser';
export * from './email-fixtures';
export * from './infra';
export * from './service-process';
export * from './test-database';
export * from './test-stack';
export * from './wait-for';
export * from './webhook-receiver';
