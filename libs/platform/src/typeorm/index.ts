/*
 * The TypeORM glue, an entry of its own (`@pp/platform/typeorm`), kept out
 * of `@pp/platform`: only the services with a database (gateway, ledger,
 * ingest, webhooks) and their migrate commands load TypeORM, about 300
 * modules that every other process would otherwise load at start.
 */
export * from './data-source';
export * from './database.module';
export * from './migrate-command';
export * from './run-migrations';
export * from './schema-check';
