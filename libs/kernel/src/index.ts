export * from './clock';
export * from './ids';
export * from './memo';
export * from './money';
export * from './lru-map';
