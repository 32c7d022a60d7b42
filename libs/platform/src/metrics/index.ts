export * from './bus-metrics';
export * from './consumer-lag';
export * from './http-metrics';
export * from './metric-catalog';
export * from './metrics-server';
export * from './nats-traffic';
export * from './queue-depth';
export * from './service-metrics';
