export * from './clock';
export * from './deadline';
export * from './ids';
export * from './memo';
export * from './money';
export * from './random-bytes';
export * from './lru-map';
export * from './storable-text';
