export * from './batcher';
export * from './wave-gate';
