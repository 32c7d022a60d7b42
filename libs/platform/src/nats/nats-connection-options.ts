import { readFileSync } from 'node:fs';
import { inboxPrefixOf } from '@pp/contracts';
import { type ConnectionOptions, credsAuthenticator } from 'nats';

/**
 * How often a connection pings the server, and how many pings may go
 * unanswered before it is taken for dead and reconnected: a server that
 * vanished without closing the connection (a node gone, a network cut) is
 * noticed within about 40 s, where NATS' defaults (2 minutes, 2 pings) took
 * 4-6 minutes, every bus request of the process timing out meanwhile.
 */
export const NATS_PING = { intervalMs: 10_000, maxOutstanding: 3 } as const;

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
    pingInterval: NATS_PING.intervalMs,
    maxPingOut: NATS_PING.maxOutstanding,
  };
}

