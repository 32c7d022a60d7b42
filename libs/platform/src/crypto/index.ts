export * from './key-ring';
export * from './sealed-box';
export * from './secret-strength';
export * from './server-keys';
