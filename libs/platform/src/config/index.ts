export * from './config-schemas';
export * from './load-config';
export * from './trusted-proxies';
