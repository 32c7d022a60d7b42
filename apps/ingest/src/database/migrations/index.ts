/** Every migration of the ingest schema, oldest first. */
export const IngestMigrations: Function[] = [];
