import { bullQueueConnection } from './bull-options';

describe('bullQueueConnection', () => {
  it('given a URL whose ACL user and password carry %-escapes, then both reach Redis decoded', () => {
    expect(bullQueueConnection('redis://svc%40x:p%40ss%2Fword@redis.internal:6380/2')).toMatchObject({
      host: 'redis.internal',
      port: 6380,
      username: 'svc@x',
      password: 'p@ss/word',
      db: 2,
    });
  });
});
