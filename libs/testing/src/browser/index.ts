export * from './launch-browser';
