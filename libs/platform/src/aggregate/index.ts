export * from './aggregate';
export * from './aggregate-runtime';
export * from './clock.token';
export * from './command-runner';
export * from './event-store';
export * from './ledger-event-store';
export * from './recent-streams';
