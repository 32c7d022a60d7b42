export * from './store-audit-entry';
