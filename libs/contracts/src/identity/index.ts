export * from './identity.subjects';
export * from './merchant-by-deposit-address.query';
