export * from './config-schemas';
export * from './load-config';
