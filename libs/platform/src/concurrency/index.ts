export * from './retry-on-concurrency-conflict';
