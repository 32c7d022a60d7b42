import type { DomainError, StoredEvent } from '@pp/contracts';
import type { ClientBase } from 'pg';
import { violatedUniqueConstraint } from '../event-store/pg-errors';

/**
 * A read model kept by the ledger. It is applied inline, in the transaction
 * of the append that produced the event (so the API reads its own writes and
 * its unique indexes can refuse the append), and again, event by event in
 * position order, when the read models are rebuilt. `apply` must therefore
 * depend only on the event and on what earlier events of the same entity wrote.
 */
export interface Projection {
  readonly name: string;
  /** Tables this projection owns; a rebuild empties them first. */
  readonly tables: readonly string[];
  handles(event: StoredEvent): boolean;
  apply(db: ClientBase, event: StoredEvent): Promise<void>;
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
