import type { DomainError, StoredEvent } from '@pp/contracts';
import type { ClientBase } from 'pg';
import { violatedUniqueConstraint } from '../event-store/pg-errors';

/**
 * A read model kept by the ledger. It is applied inline, in the transaction
 * of the append that produced the event (so the API reads its own writes and
 * its unique indexes can refuse the append), and again, event by event in
 * position order, when the read models are rebuilt. `apply` must therefore
 * depend only on the event and on what earlier events of the same entity
 * wrote, in the projection's own tables.
 */
export interface Projection {
  readonly name: string;
  /** Tables this projection owns; a rebuild empties them first. */
  readonly tables: readonly string[];
  handles(event: StoredEvent): boolean;
  apply(db: ClientBase, event: StoredEvent): Promise<void>;
  /**
   * Optional: the same effect as `apply` on each of `events` in turn (all
   * handled by this projection, in position order), in a few multi-row
   * statements. The group commit uses it for a whole batch of appends; on any
   * error it retries the batch one append at a time through `apply`.
   */
  applyBatch?(db: ClientBase, events: readonly StoredEvent[]): Promise<void>;
  /** Unique constraints of its tables that express business rules, and the error each one means. */
  readonly uniqueRules?: Readonly<Record<string, () => DomainError>>;
}

/** Applies every projection that handles each event, turning rule violations into their DomainErrors. */
export async function project(db: ClientBase, projections: readonly Projection[], events: readonly StoredEvent[]): Promise<void> {
  for (const event of events) {
    for (const projection of projections) {
      if (!projection.handles(event)) continue;
      try {
        await projection.apply(db, event);
      } catch (error) {
        const constraint = violatedUniqueConstraint(error);
        const rule = constraint ? projection.uniqueRules?.[constraint] : undefined;
        throw rule ? rule() : error;
      }
    }
  }
}

/**
 * Applies new events (position order) projection by projection: in one go
 * where the projection has `applyBatch`, else event by event. Each projection
 * owns its tables, so only the order within one projection matters. Errors
 * are left unmapped: the group commit answers them by retrying one append at
 * a time through `project`.
 */
export async function projectBatch(db: ClientBase, projections: readonly Projection[], events: readonly StoredEvent[]): Promise<void> {
  for (const projection of projections) {
    const handled = events.filter((event) => projection.handles(event));
    if (handled.length === 0) continue;
    if (projection.applyBatch) await projection.applyBatch(db, handled);
    else for (const event of handled) await projection.apply(db, event);
  }
}

/**
 * Splits events (in order) into the longest runs of one type touching each
 * entity at most once, so one multi-row statement per run has the effect of
 * applying its events one by one.
 */
export function sameTypeRuns(events: readonly StoredEvent[], entityOf: (event: StoredEvent) => string): StoredEvent[][] {
  const runs: StoredEvent[][] = [];
  let entities = new Set<string>();
  for (const event of events) {
    const run = runs[runs.length - 1];
    const entity = entityOf(event);
    if (run && run[0].type === event.type && !entities.has(entity)) {
      run.push(event);
    } else {
      runs.push([event]);
      entities = new Set();
    }
    entities.add(entity);
  }
  return runs;
}
