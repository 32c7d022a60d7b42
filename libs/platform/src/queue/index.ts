export * from './bull-options';
