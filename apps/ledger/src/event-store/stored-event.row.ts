import type { EventMetadata, StoredEvent } from '@pp/contracts';
import { toIso } from '@pp/kernel';

/** Columns selected whenever events are read, in the shape `toStoredEvent` expects. */
export const EVENT_COLUMNS = 'position, id, stream_id, version, type, schema_version, data, metadata, created_at';

export interface EventRow {
  position: string;
  id: string;
  stream_id: string;
  version: number;
  type: string;
  schema_version: number;
  data: Record<string, unknown>;
  metadata: EventMetadata;
  created_at: Date;
}

export const toStoredEvent = (row: EventRow): StoredEvent => ({
  id: row.id,
  position: Number(row.position),
  stream_id: row.stream_id,
  version: row.version,
  type: row.type,
  schema_version: row.schema_version,
  data: row.data,
  metadata: row.metadata,
  created_at: toIso(row.created_at),
});
