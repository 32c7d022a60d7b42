export * from './database-roles';
export * from './database-setup';
export * from './database.module';
export * from './migrate-command';
export * from './run-migrations';
export * from './schema-check';
export * from './schema-grants';
export * from './service-database';
