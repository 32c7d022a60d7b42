import { natsConnectionOptions } from './nats-connection-options';

describe('NATS connection options for a bus identity', () => {
  it('given a user and password in NATS_URL, then they authenticate and the inbox is the user’s own', () => {
    const options = natsConnectionOptions('nats://gateway:s3cr%40t@nats:4222', 'gateway');
    expect(options).toMatchObject({ servers: 'nats://nats:4222', user: 'gateway', pass: 's3cr@t', inboxPrefix: '_INBOX_gateway', name: 'gateway' });
  });

  it('given no user (a credentials file names the identity), then the inbox follows the service name', () => {
    const options = natsConnectionOptions('nats://127.0.0.1:4222', 'ledger');
    expect(options.user).toBeUndefined();
    expect(options.inboxPrefix).toBe('_INBOX_ledger');
  });

  it('given any identity, then the connection pings every 10 s and is dropped after 3 unanswered pings, so a vanished server is noticed within about 40 s', () => {
    expect(natsConnectionOptions('nats://127.0.0.1:4222', 'ledger')).toMatchObject({ pingInterval: 10_000, maxPingOut: 3 });
  });
});
