export * from './redis.module';
export * from './lua-script';
