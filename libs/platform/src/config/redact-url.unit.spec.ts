import { redactUrl } from './redact-url';

describe('a connection URL in a log line', () => {
  it('given a user and a password, then the password is hidden and the rest kept', () => {
    expect(redactUrl('postgres://pp_ledger:s3cret@db:5432/pp')).toBe('postgres://pp_ledger:***@db:5432/pp');
    expect(redactUrl('nats://gateway:p%40ss@nats:4222')).toBe('nats://gateway:***@nats:4222');
  });

  it('given a password without a user, then it is hidden too', () => {
    expect(redactUrl('redis://:s3cret@redis:6379')).toBe('redis://:***@redis:6379');
  });

  it('given no password, then the URL is unchanged', () => {
    expect(redactUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });

  it('given text that is not a URL, then whatever stands between // and @ is hidden', () => {
    expect(redactUrl('not a url //user:pw@host')).toBe('not a url //***@host');
  });
});
