import type { BusPermissions, IdentityPermissions } from './bus-permissions';

/** How an identity's password appears in the server config: a bcrypt hash, or a variable the server reads from its environment. */
export type PasswordSource = { bcrypt: string } | { env: string };

export interface NatsServerConfigOptions {
  permissions: BusPermissions;
  passwords: Record<string, PasswordSource>;
  /** host:port the server listens on. */
  listen: string;
  /** JetStream's store directory. */
  storeDir: string;
  /** Monitoring port (health checks); none when absent. */
  httpPort?: number;
  /** Written at the top, e.g. how the file was generated. */
  header: string;
}

/** Account every identity belongs to; JetStream is enabled for it. Anonymous connections have no account and are refused. */
export const NATS_ACCOUNT = 'PP';

/** The environment variable a deployment's NATS server reads one identity's password from, e.g. NATS_PASSWORD_MAIL_PIPELINE. */
export const passwordVariable = (identity: string): string => `NATS_PASSWORD_${identity.toUpperCase().replace(/-/g, '_')}`;

/** Renders a nats-server configuration (its own format) in which each identity may use only its generated subjects. */
export function renderNatsServerConfig(options: NatsServerConfigOptions): string {
  const users = Object.entries(options.permissions).map(([identity, permissions]) => {
    const password = options.passwords[identity];
    if (!password) throw new Error(`no password for bus identity ${identity}`);
    return renderUser(identity, password, permissions);
  });
  return [
    ...options.header.split('\n').map((line) => `# ${line}`.trimEnd()),
    `listen: ${quote(options.listen)}`,
    // A client that vanished without closing its connection (a frozen replica still in a queue group, taking its share
    // of requests) is dropped after about 80 s, where the server's defaults (2 minutes, 2 pings) took 4-6 minutes.
    'ping_interval: "20s"',
    'ping_max: 3',
    ...(options.httpPort ? [`http: ${options.httpPort}`] : []),
    `jetstream { store_dir: ${quote(options.storeDir)} }`,
    'accounts {',
    `  ${NATS_ACCOUNT} {`,
    '    jetstream: enabled',
    '    users: [',
    ...users,
    '    ]',
    '  }',
    '}',
    '',
  ].join('\n');
}

function renderUser(identity: string, password: PasswordSource, permissions: IdentityPermissions): string {
  const list = (subjects: string[]) => `[${subjects.map(quote).join(', ')}]`;
  // A variable reference is unquoted; a quoted "$2a$…" stays a literal bcrypt hash.
  const secret = 'env' in password ? `$${password.env}` : quote(password.bcrypt);
  return [
    `      { user: ${quote(identity)}, password: ${secret}, permissions: {`,
    `          publish: { allow: ${list(permissions.publish)}${permissions.publishDeny.length > 0 ? `, deny: ${list(permissions.publishDeny)}` : ''} }`,
    `          subscribe: { allow: ${list(permissions.subscribe)} }`,
    ...(permissions.allowResponses ? ['          allow_responses: true'] : []),
    '      } }',
  ].join('\n');
}

const quote = (text: string) => JSON.stringify(text);
