import { connect, type NatsConnection } from 'nats';
import { flushOncePerTurn } from './flush-once-per-turn';
import { redactUrl } from '../config/redact-url';
import { natsConnectionOptions } from './nats-connection-options';

/** A service cannot reach Postgres, NATS or Redis at start: says which and where, never with the URL's password. */
export class InfrastructureUnreachableError extends Error {
  constructor(component: string, url: string, cause: unknown) {
    super(`cannot reach ${component} at ${redactUrl(url)}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'InfrastructureUnreachableError';
  }
}

/**
 * How long the first connection may take. A refused connection fails at once
 * whatever this is; the time is for a server that is slow to answer, as when a
 * whole stack starts together on two cores (3 s failed a profiled bench start).
 */
const FIRST_CONNECT_TIMEOUT_MS = 10_000;

/**
 * One connection per process, shared by the bus client and the bus server,
 * under the process's own bus identity; it writes once per turn of the event
 * loop (flushOncePerTurn).
 */
export async function connectNats(url: string, name: string, credsFile?: string): Promise<NatsConnection> {
  let nc: NatsConnection;
  try {
    // noAsyncTraces: no stack capture on every request (measurable CPU per call); errors keep their messages.
    nc = await connect({
      ...natsConnectionOptions(url, name, credsFile),
      timeout: FIRST_CONNECT_TIMEOUT_MS,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
      noAsyncTraces: true,
    });
  } catch (error) {
    throw new InfrastructureUnreachableError('NATS', url, error);
  }
  flushOncePerTurn(nc);
  return nc;
}

/** "t42" → "t42."; "" → "". Every subject a process uses goes through this. */
export const subjectPrefix = (prefix: string): string => (prefix ? `${prefix}.` : '');
