export * from './ingest-streams';
export * from './ingest.subjects';
export * from './submit-email.command';
