// Also the entry @pp/platform/memory: light enough for a worker thread (no Nest, no drivers), which gives back
// its own heap before it is stopped (apps/ingest/src/worker/worker-pool.ts).
export * from './idle-memory.policy';
export * from './idle-memory.watch';
export * from './release-unused-memory';
