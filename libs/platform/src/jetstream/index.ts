export * from './ensure-stream';
export * from './blob-bucket';
