export * from './ensure-stream';
export * from './blob-bucket';
export * from './jetstream-trace';
export * from './consume-concurrently';
export * from './publish-to-stream';
export * from './storage-full';
