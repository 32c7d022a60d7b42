import {
  type AppendStreamsReply,
  type AppendStreamsRequest,
  DomainError,
  ErrorCode,
  type IdempotencyToken,
  type ReadStreamReply,
  type StreamAppend,
  type StreamAppendResult,
  IDEMPOTENCY_KEY_REUSED,
} from '@pp/contracts';
import { isDeadlock, violatedUniqueConstraint } from '@pp/platform';
import type { ClientBase, Pool } from 'pg';
import { type Projection, project } from '../projections/projection';
import { eventInserts, insertEventsAtExpectedVersions } from './insert-events';
import { movedStreams } from './unchanged-streams';
import { type AppendContext, eventMetadata, hasDistinctStreams, type StreamRange, streamRanges } from './append-request';
import { appendBatch, type BatchedAppend } from './batch-append';
import { EVENT_COLUMNS, type EventRow, toStoredEvent } from './stored-event.row';

interface IdempotencyRow extends StreamRange {
  fingerprint: string;
  /** Every stream of the append (null on records written before multi-stream appends: then the row's own range). */
  streams: StreamRange[] | null;
}

/**
 * Appends and reads events on a client the caller owns, so several appends
 * can share one transaction (group commit). One append is: claim the
 * idempotency key, insert the events of every stream if each is still at its
 * expected version (one statement), and apply the inline projections. The
 * caller's savepoint makes it all or nothing across streams.
 */
export class EventStore {
  constructor(private readonly projections: readonly Projection[]) {}

  /**
   * Transactions that write the same rows in opposite orders (the events of
   * the same streams, the same idempotency key, the same key of a read
   * model's unique index) wait on each other's uncommitted rows, and Postgres
   * fails one with a deadlock, whichever of the append's statements it
   * meets. The group commit takes its streams' locks in one order first
   * (stream-locks.ts), so its batches do not deadlock on the events of their
   * streams; on an idempotency key or a read model's unique key, or in a
   * transaction of the caller's own, they still may. That append lost a race
   * like any other conflict: the writer reads the streams again and decides
   * anew (CommandRunner), in a later transaction.
   */
  async appendStreams(db: ClientBase, request: AppendStreamsRequest, context: AppendContext): Promise<AppendStreamsReply> {
    try {
      return await this.appendOnce(db, request, context);
    } catch (error) {
      throw lostRaceAsConflict(error, request.streams);
    }
  }

  private async appendOnce(db: ClientBase, request: AppendStreamsRequest, context: AppendContext): Promise<AppendStreamsReply> {
    const { streams, idempotency } = request;
    if (!hasDistinctStreams(request)) {
      throw new DomainError(ErrorCode.ValidationFailed, 'streams and unchanged must name distinct stream ids');
    }
    if (idempotency) {
      const earlier = await this.claimKey(db, request, idempotency);
      if (earlier) return this.replay(db, earlier, idempotency);
    }
    const [moved] = await movedStreams(db, request.unchanged ?? []);
    if (moved) throw concurrencyConflict({ stream_id: moved.stream_id, expected_version: moved.version });
    const rows = eventInserts(streams, eventMetadata(request, context));
    let inserted: EventRow[];
    try {
      inserted = await insertEventsAtExpectedVersions(db, rows);
    } catch (error) {
      if (violatedUniqueConstraint(error) === 'events_stream_version_key') throw concurrencyConflict(streamOfConflict(error, streams));
      throw error;
    }
    const stored = inserted.map(toStoredEvent);
    const results: StreamAppendResult[] = streams.map((stream) => {
      const events = stored.filter((event) => event.stream_id === stream.stream_id).sort((a, b) => a.version - b.version);
      if (events.length !== stream.events.length) throw concurrencyConflict(stream);
      return { stream_id: stream.stream_id, version: stream.expected_version + events.length, events };
    });
    await project(db, this.projections, [...stored].sort((a, b) => a.position - b.position));
    return { streams: results, replayed: false };
  }

  /** A whole group-commit batch at once, or undefined / an error when it must go one append at a time (see appendBatch). */
  appendBatch(db: ClientBase, batch: readonly BatchedAppend[]): Promise<AppendStreamsReply[] | undefined> {
    return appendBatch(db, this.projections, batch);
  }

  /** The stream's events in order, or its last `last` ones (read backwards on the stream's version index). */
  async readStream(db: Pool, streamId: string, last?: number): Promise<ReadStreamReply> {
    const { rows } =
      last === undefined
        ? await db.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM ledger.events WHERE stream_id = $1 ORDER BY version`, [streamId])
        : await db.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM ledger.events WHERE stream_id = $1 ORDER BY version DESC LIMIT $2`, [streamId, last]);
    if (last !== undefined) rows.reverse();
    return { stream_id: streamId, version: rows.length > 0 ? rows[rows.length - 1].version : 0, events: rows.map(toStoredEvent) };
  }

  /** The append an idempotency key recorded, answered as a replay. */
  async replayKey(db: ClientBase, merchantId: string, livemode: boolean, token: IdempotencyToken): Promise<AppendStreamsReply> {
    const { rows } = await db.query<IdempotencyRow>(
      `SELECT fingerprint, stream_id, first_version, last_version, streams FROM ledger.idempotency_keys
       WHERE merchant_id = $1 AND livemode = $2 AND key = $3`,
      [merchantId, livemode, token.key],
    );
    if (rows.length === 0) throw new DomainError(ErrorCode.NotFound, 'No append was recorded under this Idempotency-Key');
    return this.replay(db, rows[0], token);
  }

  /**
   * Records the key for this append, or returns the append that holds it. A
   * concurrent holder makes the insert wait for its outcome, so a committed
   * holder is always seen here.
   */
  private async claimKey(db: ClientBase, request: AppendStreamsRequest, token: IdempotencyToken): Promise<IdempotencyRow | undefined> {
    const scope = [request.metadata.merchant_id, request.metadata.livemode, token.key];
    const ranges = streamRanges(request);
    const claimed = await db.query(
      `INSERT INTO ledger.idempotency_keys (merchant_id, livemode, key, fingerprint, stream_id, first_version, last_version, streams)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
      [...scope, token.fingerprint, ranges[0].stream_id, ranges[0].first_version, ranges[0].last_version, JSON.stringify(ranges)],
    );
    if (claimed.rowCount === 1) return undefined;
    const { rows } = await db.query<IdempotencyRow>(
      `SELECT fingerprint, stream_id, first_version, last_version, streams FROM ledger.idempotency_keys
       WHERE merchant_id = $1 AND livemode = $2 AND key = $3`,
      scope,
    );
    return rows[0];
  }

  private async replay(db: ClientBase, earlier: IdempotencyRow, token: IdempotencyToken): Promise<AppendStreamsReply> {
    if (earlier.fingerprint !== token.fingerprint) {
      throw new DomainError(ErrorCode.ValidationFailed, IDEMPOTENCY_KEY_REUSED);
    }
    const ranges = earlier.streams ?? [earlier];
    const { rows } = await db.query<EventRow>(
      `SELECT ${EVENT_COLUMNS.split(', ').map((column) => `e.${column}`).join(', ')}
       FROM unnest($1::text[], $2::int[], $3::int[]) AS r(stream_id, first_version, last_version)
       JOIN ledger.events e ON e.stream_id = r.stream_id AND e.version BETWEEN r.first_version AND r.last_version
       ORDER BY e.stream_id, e.version`,
      [ranges.map((r) => r.stream_id), ranges.map((r) => r.first_version), ranges.map((r) => r.last_version)],
    );
    const events = rows.map(toStoredEvent);
    return {
      streams: ranges.map((range) => ({
        stream_id: range.stream_id,
        version: range.last_version,
        events: events.filter((event) => event.stream_id === range.stream_id),
      })),
      replayed: true,
    };
  }
}

/** The stream a unique violation names in its detail ("Key (stream_id, version)=(s, 2) already exists."). */
function streamOfConflict(error: unknown, streams: readonly StreamAppend[]): StreamAppend {
  const detail = (error as { detail?: string }).detail ?? '';
  return streams.find((stream) => detail.includes(`(${stream.stream_id}, `)) ?? streams[0];
}

/**
 * What an append's error answers: a deadlock, a race the append lost (see
 * appendStreams), is the retryable CONCURRENCY_CONFLICT; any other error is
 * itself. A deadlock names no one stream: the append's streams were being
 * written by another transaction.
 */
const lostRaceAsConflict = (error: unknown, streams: readonly Pick<StreamAppend, 'stream_id'>[]): unknown =>
  isDeadlock(error)
    ? new DomainError(ErrorCode.ConcurrencyConflict, `Streams ${streams.map((stream) => stream.stream_id).join(', ')} were being written by another transaction`, {
        stream_ids: streams.map((stream) => stream.stream_id),
      })
    : error;

const concurrencyConflict = (stream: Pick<StreamAppend, 'stream_id' | 'expected_version'>): DomainError =>
  new DomainError(ErrorCode.ConcurrencyConflict, `Stream ${stream.stream_id} is no longer at version ${stream.expected_version}`, {
    stream_id: stream.stream_id,
    expected_version: stream.expected_version,
  });
