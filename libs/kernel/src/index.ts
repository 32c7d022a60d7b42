export * from './clock';
export * from './ids';
export * from './memo';
export * from './money';
export * from './random-bytes';
export * from './lru-map';
