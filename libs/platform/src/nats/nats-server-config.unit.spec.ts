import { NATS_ACCOUNT, passwordVariable, renderNatsServerConfig } from './nats-server-config';

const permissions = {
  ledger: { publish: ['ledger.events.>'], publishDeny: [], subscribe: ['_INBOX_ledger.>', 'ledger.append.v1'], allowResponses: true },
  'mail-pipeline': { publish: ['ingest.email.raw', '$JS.API.CONSUMER.CREATE.S.>'], publishDeny: ['$JS.API.CONSUMER.CREATE.S.durable'], subscribe: ['_INBOX_mail-pipeline.>'], allowResponses: false },
};

describe('nats-server config rendering', () => {
  it('given bcrypt hashes, then each user has its quoted hash, its allow lists, and allow_responses only when it serves', () => {
    const text = renderNatsServerConfig({
      header: 'generated',
      permissions,
      passwords: { ledger: { bcrypt: '$2b$11$abc' }, 'mail-pipeline': { bcrypt: '$2b$11$def' } },
      listen: '127.0.0.1:4322',
      storeDir: '/tmp/js',
    });
    expect(text).toContain('# generated\nlisten: "127.0.0.1:4322"\nping_interval: "20s"\nping_max: 3');
    expect(text).toContain(`accounts {\n  ${NATS_ACCOUNT} {\n    jetstream: enabled`);
    expect(text).toContain('{ user: "ledger", password: "$2b$11$abc", permissions: {');
    expect(text).toContain('publish: { allow: ["ledger.events.>"] }');
    expect(text).toContain('publish: { allow: ["ingest.email.raw", "$JS.API.CONSUMER.CREATE.S.>"], deny: ["$JS.API.CONSUMER.CREATE.S.durable"] }');
    expect(text.match(/allow_responses: true/g)).toHaveLength(1);
    expect(text).not.toContain('http:');
  });

  it('given passwords from the environment, then they are unquoted variable references', () => {
    const text = renderNatsServerConfig({
      header: 'h',
      permissions,
      passwords: { ledger: { env: passwordVariable('ledger') }, 'mail-pipeline': { env: passwordVariable('mail-pipeline') } },
      listen: '0.0.0.0:4222',
      storeDir: '/data',
      httpPort: 8222,
    });
    expect(text).toContain('password: $NATS_PASSWORD_LEDGER,');
    expect(text).toContain('password: $NATS_PASSWORD_MAIL_PIPELINE,');
    expect(text).toContain('http: 8222');
  });

  it('given an identity without a password, then rendering refuses', () => {
    expect(() =>
      renderNatsServerConfig({ header: 'h', permissions, passwords: { ledger: { env: 'X' } }, listen: 'l', storeDir: 's' }),
    ).toThrow('no password for bus identity mail-pipeline');
  });
});
