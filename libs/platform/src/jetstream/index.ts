export * from './ensure-stream';
