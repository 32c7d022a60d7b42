import type { AppendStreamsRequest, Event, EventMetadata, StreamAppend } from '@pp/contracts';
import { newId } from '@pp/kernel';
import type { ClientBase } from 'pg';
import type { AppendedEvent } from '../projections/projection';
import { EVENT_COLUMNS, type EventRow } from './stored-event.row';

/** One event to insert, at the version after its stream's expected one. */
export interface EventInsert {
  id: string;
  stream: StreamAppend;
  version: number;
  event: Event;
  metadata: EventMetadata;
}

/** The rows of one append: every event of every stream, numbered from the stream's expected version. */
export function eventInserts(streams: AppendStreamsRequest['streams'], metadata: EventMetadata): EventInsert[] {
  return streams.flatMap((stream) =>
    stream.events.map((event, i) => ({ id: newId('event'), stream, version: stream.expected_version + i + 1, event, metadata })),
  );
}

/** The event a row will be once inserted, as the projections take it (they read its position and time from ledger.events). */
export const appendedEvent = (row: EventInsert): AppendedEvent => ({
  id: row.id,
  stream_id: row.stream.stream_id,
  version: row.version,
  type: row.event.type,
  schema_version: row.event.schema_version,
  data: row.event.data as Record<string, unknown>,
  metadata: row.metadata,
});

/**
 * One statement for any number of streams: each row is inserted only if its
 * stream is still at the expected version (the subquery sees the snapshot
 * before this statement), and UNIQUE (stream_id, version) catches a
 * concurrent transaction. Rows of a stream that has moved are simply not
 * returned; callers compare counts.
 *
 * The rows go as one JSON document: as `jsonb[]` parameters, node-postgres
 * escaped every event's JSON text into an array literal (two copies of it)
 * and Postgres unescaped it again: about an eighth of what the ledger
 * allocated during the ingest (docs/PERFORMANCE.md, "Events as one JSON document").
 */
export async function insertEventsAtExpectedVersions(db: ClientBase, rows: readonly EventInsert[]): Promise<EventRow[]> {
  const { rows: inserted } = await db.query<EventRow>(
    `INSERT INTO ledger.events (id, stream_id, version, type, schema_version, data, metadata)
     SELECT e.id, e.stream_id, e.version, e.type, e.schema_version, e.data, e.metadata
     FROM jsonb_to_recordset($1::jsonb) AS e(
       ord int, id text, stream_id text, version int, expected int, type text, schema_version smallint, data jsonb, metadata jsonb)
     WHERE (SELECT coalesce(max(x.version), 0) FROM ledger.events x WHERE x.stream_id = e.stream_id) = e.expected
     ORDER BY e.ord
     RETURNING ${EVENT_COLUMNS}`,
    [
      JSON.stringify(
        rows.map((row, ord) => ({
          ord,
          id: row.id,
          stream_id: row.stream.stream_id,
          version: row.version,
          expected: row.stream.expected_version,
          type: row.event.type,
          schema_version: row.event.schema_version,
          data: row.event.data,
          metadata: row.metadata,
        })),
      ),
    ],
  );
  return inserted;
}
