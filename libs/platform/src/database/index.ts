export * from './database.module';
export * from './run-migrations';
