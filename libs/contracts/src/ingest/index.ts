export * from './email-evidence';
export * from './ingest-streams';
export * from './ingest.subjects';
export * from './quarantine';
export * from './submit-email.command';
