export * from './bull-options';
export * from './job-trace';
