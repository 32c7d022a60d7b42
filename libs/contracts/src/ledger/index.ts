export * from './append';
export * from './ledger-events.stream';
export * from './ledger.subjects';
export * from './merchant-events';
export * from './stored-event';
export * from './aggregate';
