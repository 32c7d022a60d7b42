import {
  type AppendReply,
  type AppendRequest,
  DomainError,
  ErrorCode,
  type EventMetadata,
  type IdempotencyToken,
  type ReadStreamReply,
} from '@pp/contracts';
import { newId } from '@pp/kernel';
import type { ClientBase, Pool } from 'pg';
import { type Projection, project } from '../projections/projection';
import { violatedUniqueConstraint } from './pg-errors';
import { EVENT_COLUMNS, type EventRow, toStoredEvent } from './stored-event.row';

/** What the transport knows about an append besides its payload. */
export interface AppendContext {
  requestId?: string;
  trace?: Record<string, string>;
}

interface IdempotencyRow {
  fingerprint: string;
  stream_id: string;
  first_version: number;
  last_version: number;
}

/**
 * Appends and reads events on a client the caller owns, so several appends
 * can share one transaction (group commit). One append is: claim the
 * idempotency key, insert the events if the stream is still at the expected
 * version, and apply the inline projections.
 */
export class EventStore {
  constructor(private readonly projections: readonly Projection[]) {}

  async append(db: ClientBase, request: AppendRequest, context: AppendContext): Promise<AppendReply> {
    const { stream_id: streamId, expected_version: expected, idempotency } = request;
    if (idempotency) {
      const earlier = await this.claimKey(db, request, idempotency);
      if (earlier) return this.replay(db, earlier, idempotency);
    }
    const metadata: EventMetadata = {
      merchant_id: request.metadata.merchant_id,
      livemode: request.metadata.livemode,
      ...(idempotency ? { idempotency_key: idempotency.key } : {}),
      ...(request.metadata.causation_id ? { causation_id: request.metadata.causation_id } : {}),
      ...(context.requestId ? { correlation_id: context.requestId } : {}),
      ...(context.trace && Object.keys(context.trace).length > 0 ? { trace: context.trace } : {}),
    };
    let rows: EventRow[];
    try {
      // The WHERE clause makes the version check and the insert one statement;
      // the unique (stream_id, version) catches a concurrent transaction.
      ({ rows } = await db.query<EventRow>(
        `INSERT INTO ledger.events (id, stream_id, version, type, schema_version, data, metadata)
         SELECT e.id, $1, $2 + e.ord, e.type, e.schema_version, e.data, $7::jsonb
         FROM unnest($3::text[], $4::text[], $5::smallint[], $6::jsonb[]) WITH ORDINALITY AS e(id, type, schema_version, data, ord)
         WHERE (SELECT coalesce(max(version), 0) FROM ledger.events WHERE stream_id = $1) = $2
         ORDER BY e.ord
         RETURNING ${EVENT_COLUMNS}`,
        [
          streamId,
          expected,
          request.events.map(() => newId('event')),
          request.events.map((event) => event.type),
          request.events.map((event) => event.schema_version),
          request.events.map((event) => JSON.stringify(event.data)),
          JSON.stringify(metadata),
        ],
      ));
    } catch (error) {
      if (violatedUniqueConstraint(error) === 'events_stream_version_key') throw concurrencyConflict(request);
      throw error;
    }
    if (rows.length === 0) throw concurrencyConflict(request);
    const events = rows.map(toStoredEvent).sort((a, b) => a.version - b.version);
    await project(db, this.projections, events);
    return { stream_id: streamId, version: expected + events.length, events, replayed: false };
  }

  async readStream(db: Pool, streamId: string): Promise<ReadStreamReply> {
    const { rows } = await db.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM ledger.events WHERE stream_id = $1 ORDER BY version`, [
      streamId,
    ]);
    return { stream_id: streamId, version: rows.length > 0 ? rows[rows.length - 1].version : 0, events: rows.map(toStoredEvent) };
  }

  /**
   * Records the key for this append, or returns the append that holds it. A
   * concurrent holder makes the insert wait for its outcome, so a committed
   * holder is always seen here.
   */
  private async claimKey(db: ClientBase, request: AppendRequest, token: IdempotencyToken): Promise<IdempotencyRow | undefined> {
    const scope = [request.metadata.merchant_id, request.metadata.livemode, token.key];
    const claimed = await db.query(
      `INSERT INTO ledger.idempotency_keys (merchant_id, livemode, key, fingerprint, stream_id, first_version, last_version)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
      [...scope, token.fingerprint, request.stream_id, request.expected_version + 1, request.expected_version + request.events.length],
    );
    if (claimed.rowCount === 1) return undefined;
    const { rows } = await db.query<IdempotencyRow>(
      `SELECT fingerprint, stream_id, first_version, last_version FROM ledger.idempotency_keys
       WHERE merchant_id = $1 AND livemode = $2 AND key = $3`,
      scope,
    );
    return rows[0];
  }

  private async replay(db: ClientBase, earlier: IdempotencyRow, token: IdempotencyToken): Promise<AppendReply> {
    if (earlier.fingerprint !== token.fingerprint) {
      throw new DomainError(ErrorCode.ValidationFailed, 'Idempotency-Key reused with different parameters');
    }
    const { rows } = await db.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM ledger.events WHERE stream_id = $1 AND version BETWEEN $2 AND $3 ORDER BY version`,
      [earlier.stream_id, earlier.first_version, earlier.last_version],
    );
    return { stream_id: earlier.stream_id, version: earlier.last_version, events: rows.map(toStoredEvent), replayed: true };
  }
}

const concurrencyConflict = (request: AppendRequest): DomainError =>
  new DomainError(ErrorCode.ConcurrencyConflict, `Stream ${request.stream_id} is no longer at version ${request.expected_version}`, {
    stream_id: request.stream_id,
    expected_version: request.expected_version,
  });
