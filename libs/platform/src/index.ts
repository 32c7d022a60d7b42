export * from './app';
export * from './config';
export * from './database';
export * from './health';
export * from './logging';
export * from './nats';
export * from './redis';
export * from './telemetry';
