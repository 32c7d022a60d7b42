export * from './checkout-page.subjects';
export * from './checkout-page.views';
export * from './client-secret';
