export * from './bus-identities';
export * from './jetstream-access';
export * from './subject-access';
export * from './subject-registry';
