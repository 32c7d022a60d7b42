export * from './validation-metadata-cache';
export * from './adopt-as-instance';
export * from './rules-check';
