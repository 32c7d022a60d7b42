export * from './merchant-event.views';
export * from './merchant-events.subjects';
