export * from './all-answered';
export * from './checked-out-clients';
export * from './database-roles';
export * from './database-setup';
export * from './pg-errors';
export * from './preparing-client';
export * from './schema-grants';
export * from './service-database';
