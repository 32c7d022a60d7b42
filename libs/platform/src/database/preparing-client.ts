import { createHash } from 'node:crypto';
import type { Socket } from 'node:net';
import { Client } from 'pg';
import { isCachedPlanReshaped, PG_ANSWER_TIMED_OUT } from './pg-errors';

/**
 * Distinct statements one connection keeps prepared. Texts past it (a
 * multi-row insert with a row count not seen before, say) run unnamed, as
 * before, so a connection's plan cache on the server stays bounded.
 */
export const MAX_PREPARED_PER_CONNECTION = 200;

/** Names already worked out, by statement text (one hash per text per process, not per query). */
const names = new Map<string, string>();
const MAX_NAMED_TEXTS = 4096;

/** The first schema-qualified table a statement names after FROM, INTO, UPDATE or JOIN (services always qualify theirs). */
const FIRST_TABLE = /\b(?:FROM|INTO|UPDATE|JOIN)\s+([a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*)/i;

/**
 * The statement's name: its first word and first table, which traces show
 * as the span name (`pg.query:INSERT ledger.events#…`), and a digest of its
 * text, so one name never stands for two texts. At most 63 bytes, Postgres's
 * identifier length.
 */
export function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= MAX_NAMED_TEXTS) return undefined;
    const verb = /^\s*([a-z]+)/i.exec(text)?.[1]?.toUpperCase() ?? 'SQL';
    const table = FIRST_TABLE.exec(text)?.[1];
    const label = (table ? `${verb} ${table}` : verb).slice(0, 48);
    name = `${label}#${createHash('sha256').update(text).digest('base64url').slice(0, 12)}`;
    names.set(text, name);
  }
  return name;
}

type QueryCallback = (error: Error | null, result: unknown) => void;

/**
 * A node-postgres client that prepares every parameterized statement once per
 * connection instead of sending it unnamed. Unnamed, Postgres parses,
 * analyzes and plans the text again on every execution, which measured as
 * much server CPU as running it on the services' hot statements (event
 * append, webhook intake, ingest outcomes; docs/PERFORMANCE.md); named, the
 * connection parses it once and Postgres keeps the plan (custom plans for the
 * first five runs, then a generic plan only where it costs no more).
 *
 * Only queries with values change: those already go through the extended
 * protocol. Text-only queries (BEGIN, multi-statement strings) stay on the
 * simple protocol. Prepared statements live per server session, so this needs
 * a direct connection or session pooling, never a transaction-pooling proxy.
 */
export class PreparingClient extends Client {
  private readonly prepared = new Set<string>();
  /** Statements this connection no longer names: their prepared form's result no longer fits the table (isCachedPlanReshaped). */
  private readonly stale = new Set<string>();
  private writesHeld = false;

  // node-postgres overloads query() many ways; only (text, values[, callback]) is rewritten, and every form's failure is heard.
  override query(config: unknown, values?: unknown, callback?: unknown): never {
    if (this.pipelined) this.holdWritesToEndOfTick();
    const call = super.query as unknown as (config: unknown, values?: unknown, callback?: unknown) => never;
    let name: string | undefined;
    if (typeof config === 'string' && Array.isArray(values) && values.length > 0) {
      name = this.nameFor(config);
      if (name !== undefined) [config, values] = [{ name, text: config, values }, undefined];
    }
    const heard = (error: unknown) => {
      if (name !== undefined) this.forgetIfReshaped(name, error);
      this.endIfUnanswered(error);
    };
    if (typeof values === 'function' || typeof callback === 'function') {
      const [given, answer] = typeof values === 'function' ? [undefined, values as QueryCallback] : [values, callback as QueryCallback];
      return call.call(this, config, given, (error: Error | null, result: unknown) => {
        heard(error);
        answer(error, result);
      });
    }
    const result = call.call(this, config, values) as unknown;
    if (!(result instanceof Promise)) return result as never; // a submittable (a cursor, a stream) answers through itself
    return result.catch((error: unknown) => {
      heard(error);
      throw error;
    }) as never;
  }

  /**
   * node-postgres gives up on a statement whose answer is later than
   * `query_timeout` (sessionLimitParameters' answer deadline) and fails it,
   * but leaves a connection it already sent it on waiting for that answer
   * (a pipelined one it ends itself): every later statement on it would wait
   * too. The answer is so late only from a server that froze or vanished, so
   * the connection is ended at once (end() drops one with a statement under
   * way): the pool drops a client that is ending when it comes back, and the
   * next statement connects anew.
   */
  private endIfUnanswered(error: unknown): void {
    if (this.pipelined || !(error instanceof Error) || error.message !== PG_ANSWER_TIMED_OUT) return;
    void this.end();
  }

  private get pipelined(): boolean {
    return (this as unknown as { pipeline: boolean }).pipeline;
  }

  /**
   * A prepared statement's result shape is fixed when it is prepared: once a migration changes a table it answers
   * whole rows of (`SELECT *`, `RETURNING *`, `t.*`: a column added while the previous build still runs), Postgres
   * refuses it, "cached plan must not change result type". That run fails; the connection then runs the text
   * unnamed, so it fails once per connection rather than until the connection closes.
   */
  private forgetIfReshaped(name: string, error: unknown): void {
    if (!isCachedPlanReshaped(error)) return;
    this.prepared.delete(name);
    this.stale.add(name);
  }

  /**
   * On a pipelined connection node-postgres sends each statement at once, in
   * its own write system call, and each write can wake the server for part of
   * the round. Statements issued in the same tick (the group commit sends a
   * batch's keys, events and projections together) are held and go out in
   * one write when the tick ends. A pipelined statement is never waited for
   * before the statements after it are sent, so holding them to the end of
   * the tick delays nothing that could answer sooner.
   */
  private holdWritesToEndOfTick(): void {
    if (this.writesHeld) return;
    const stream = (this as unknown as { connection: { stream: Socket } }).connection.stream;
    stream.cork();
    this.writesHeld = true;
    process.nextTick(() => {
      this.writesHeld = false;
      stream.uncork();
    });
  }

  private nameFor(text: string): string | undefined {
    const name = statementName(text);
    if (name === undefined || this.stale.has(name)) return undefined;
    if (this.prepared.has(name)) return name;
    if (this.prepared.size >= MAX_PREPARED_PER_CONNECTION) return undefined;
    this.prepared.add(name);
    return name;
  }
}
