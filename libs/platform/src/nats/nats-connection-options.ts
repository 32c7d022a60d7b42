import { readFileSync } from 'node:fs';
import { inboxPrefixOf } from '@pp/contracts';
import { type ConnectionOptions, credsAuthenticator } from 'nats';

/**
 * Connection options for one bus identity (PRODUCT-RULES §D4 "bus identities"):
 * user and password from NATS_URL's userinfo (`nats://user:pass@host:port`),
 * or the credentials file named by NATS_CREDS. Replies come back under the
 * identity's own inbox prefix, the only one its permissions let it read.
 */
export function natsConnectionOptions(url: string, name: string, credsFile?: string): ConnectionOptions {
  const parsed = new URL(url);
  const user = decodeURIComponent(parsed.username);
  const pass = decodeURIComponent(parsed.password);
  const server = `${parsed.protocol}//${parsed.host}`;
  return {
    servers: server,
    name,
    ...(user ? { user, pass } : {}),
    ...(credsFile ? { authenticator: credsAuthenticator(readFileSync(credsFile)) } : {}),
    inboxPrefix: inboxPrefixOf(user || name),
    // Otherwise every request and publish captures two stack traces up front, for errors that BusClient
    // replaces with its own (naming the subject) anyway: measurable CPU per bus hop (docs/PERFORMANCE.md).
    noAsyncTraces: true,
  };
}

