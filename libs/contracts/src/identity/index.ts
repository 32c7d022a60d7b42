export * from './api-keys.commands';
export * from './dashboard-login.query';
export * from './dashboard-principal.query';
export * from './identity.subjects';
export * from './merchants-by-deposit-address.query';
export * from './merchants.commands';
export * from './audit.commands';
export * from './team.commands';
