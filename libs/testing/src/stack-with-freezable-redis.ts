import { FreezableRelay } from './freezable-relay';
import { testInfra } from './infra';
import { TestStack, type TestStackOptions } from './test-stack';

/** A TestStack whose services reach Redis only through a FreezableRelay: a Redis the test can make stop answering. */
export interface StackWithFreezableRedis {
  stack: TestStack;
  redis: FreezableRelay;
  /** Lets Redis answer again first, so that the services' queues can close, then stops the stack and the relay. */
  stop(): Promise<void>;
}

export async function startStackWithFreezableRedis(options: TestStackOptions): Promise<StackWithFreezableRedis> {
  const redis = await FreezableRelay.start(new URL(testInfra.redisUrl));
  let stack: TestStack;
  try {
    stack = await TestStack.start({ ...options, env: { ...options.env, REDIS_URL: redis.url } });
  } catch (error) {
    redis.stop();
    throw error;
  }
  return {
    stack,
    redis,
    stop: async () => {
      redis.thaw();
      await stack.stop();
      redis.stop();
    },
  };
}
