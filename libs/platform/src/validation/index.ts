export * from './validation-metadata-cache';
