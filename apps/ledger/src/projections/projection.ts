import type { DomainError, Event, StoredEvent } from '@pp/contracts';
import { allAnswered, violatedUniqueConstraint } from '@pp/platform';
import type { ClientBase } from 'pg';

/**
 * An event as a projection gets it: already inserted in ledger.events, in the
 * same transaction or before a rebuild, but without the two fields the
 * insert assigns (position, created_at). A projection that keeps them reads
 * them from ledger.events in its own statement, so the group commit can send
 * the projections in the same round trip as the insert (batch-append.ts).
 */
export type AppendedEvent = Omit<StoredEvent, 'position' | 'created_at'>;

/** An appended event of a known union: `Appended<RefundEvent>` narrows `data` on `type`. */
export type Appended<E extends Event> = E extends Event ? Omit<AppendedEvent, 'type' | 'data'> & { type: E['type']; data: E['data'] } : never;

/**
 * A read model kept by the ledger. It is applied inline, in the transaction
 * of the append that produced the event (so the API reads its own writes and
 * its unique indexes can refuse the append), and again, event by event in
 * position order, when the read models are rebuilt. `apply` must therefore
 * depend only on the event (its stored row in ledger.events included) and
 * on what earlier events of the same entity wrote, in the projection's own
 * tables. `E` is the union of the events it
 * handles, so `apply` switches on `type` and reads typed `data`.
 */
export interface Projection<E extends Event = Event> {
  readonly name: string;
  /** Tables this projection owns; a rebuild empties them first. */
  readonly tables: readonly string[];
  handles(event: AppendedEvent): boolean;
  apply(db: ClientBase, event: Appended<E>): Promise<void>;
  /**
   * Optional: the same effect as `apply` on each of `events` in turn (all
   * handled by this projection, in position order), in a few multi-row
   * statements. The group commit uses it for a whole batch of appends; on any
   * error it retries the batch one append at a time through `apply`.
   */
  applyBatch?(db: ClientBase, events: readonly Appended<E>[]): Promise<void>;
  /** Unique constraints of its tables that express business rules, and the error each one means. */
  readonly uniqueRules?: Readonly<Record<string, () => DomainError>>;
}

/** Applies every projection that handles each event, turning rule violations into their DomainErrors. */
export async function project(db: ClientBase, projections: readonly Projection[], events: readonly AppendedEvent[]): Promise<void> {
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
 * Applies new events (insertion order) to every projection at once: in one go
 * where the projection has `applyBatch`, else event by event. Each projection
 * owns its tables, so only the order within one projection matters, and the
 * projections' first statements travel together on the group commit's
 * pipelined connection. Errors are left unmapped: the group commit answers
 * them by retrying one append at a time through `project`.
 */
export async function projectBatch(db: ClientBase, projections: readonly Projection[], events: readonly AppendedEvent[]): Promise<void> {
  await allAnswered(
    projections.map(async (projection) => {
      const handled = events.filter((event) => projection.handles(event));
      if (handled.length === 0) return;
      if (projection.applyBatch) await projection.applyBatch(db, handled);
      else for (const event of handled) await projection.apply(db, event);
    }),
  );
}

/**
 * Splits events (in order) into the longest runs of one type touching each
 * entity at most once, so one multi-row statement per run has the effect of
 * applying its events one by one.
 */
export function sameTypeRuns<S extends { type: string }>(events: readonly S[], entityOf: (event: S) => string): S[][] {
  const runs: S[][] = [];
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

/**
 * `apply` and `applyBatch` for a projection that writes a run of same-type
 * events, each about a different entity, in one statement (`applyRun`).
 */
export function appliedInRuns<E extends Event>(
  entityOf: (event: Appended<E>) => string,
  applyRun: (db: ClientBase, run: readonly Appended<E>[]) => Promise<void>,
): Pick<Projection<E>, 'apply' | 'applyBatch'> {
  return {
    apply: (db, event) => applyRun(db, [event]),
    applyBatch: async (db, events) => {
      for (const run of sameTypeRuns(events, entityOf)) await applyRun(db, run);
    },
  };
}

/** The events of `events` whose type is `type`, typed as such. */
export const ofType = <S extends { type: string }, T extends S['type']>(events: readonly S[], type: T): Extract<S, { type: T }>[] =>
  events.filter((event): event is Extract<S, { type: T }> => event.type === type);
