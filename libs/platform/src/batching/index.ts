export * from './write-batcher';
