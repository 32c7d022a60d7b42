export * from './errors';
export * from './health';
export * from './services';
export * from './subjects';
