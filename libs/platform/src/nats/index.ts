export * from './bus-client';
export * from './bus-context';
export * from './bus-envelope';
export * from './bus-exception.filter';
export * from './bus-headers';
export * from './connect-nats';
export * from './nats-bus-server';
