import { demoRefusal } from './demo-seed';

describe('where the demo commands run', () => {
  it.each([undefined, '', 'development', 'test', ' Test '])('given NODE_ENV=%p (a developer’s machine or tests), then they run', (nodeEnv) => {
    expect(demoRefusal('demo:seed', nodeEnv)).toBeUndefined();
  });

  it.each(['production', 'PRODUCTION', 'staging'])('given NODE_ENV=%s, then they are refused, saying why', (nodeEnv) => {
    expect(demoRefusal('demo:seed-platform-admin', nodeEnv)).toBe(
      `demo:seed-platform-admin is for development and tests only: refused under NODE_ENV=${nodeEnv} (it runs when NODE_ENV is unset, development or test)`,
    );
  });
});
