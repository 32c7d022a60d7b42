export * from './redis.module';
export * from './lua-script';
export * from './service-redis';
export * from './redis-unavailable';
export * from './redis-users';
