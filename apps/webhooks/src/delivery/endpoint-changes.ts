import { WebhookDeliveryStatus } from '@pp/contracts';
import type { AttemptDecision } from './retry.decider';

/** What a batch of attempt outcomes changes on their endpoints, each endpoint in at most one list. */
export interface EndpointChanges {
  /** Answered with success: their failure streak ends (failing_since cleared). */
  recovered: string[];
  /** Failed: their failure streak goes on, or starts now if none is running or it has been quiet too long (completeAll). */
  failing: string[];
  /** To disable, with the reason each shows and, for a failure streak, the streak's start it must still have. */
  disabled: Array<{ id: string; reason: string; streakSince: Date | null }>;
}

/**
 * Folds the outcomes of several attempts, in the order they finished, into
 * one change per endpoint, as if they had been recorded one by one: the last
 * outcome decides the failure streak, and a disabling stands whatever came
 * after it in the batch (its reason is the first one given). One change per
 * endpoint is also what lets a single SQL statement write them all, since a
 * statement may not update one row twice.
 */
export function endpointChanges(outcomes: ReadonlyArray<{ endpointId: string; decision: AttemptDecision }>): EndpointChanges {
  const disabled = new Map<string, { reason: string; streakSince: Date | null }>();
  const streak = new Map<string, boolean>();
  for (const { endpointId, decision } of outcomes) {
    if (decision.disableEndpoint) {
      if (!disabled.has(endpointId)) disabled.set(endpointId, { reason: decision.disableEndpoint, streakSince: decision.streakSince ?? null });
    } else {
      streak.set(endpointId, decision.status === WebhookDeliveryStatus.Success);
    }
  }
  const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const open = [...streak].filter(([id]) => !disabled.has(id));
  return {
    recovered: open.filter(([, succeeded]) => succeeded).map(([id]) => id).sort(byId),
    failing: open.filter(([, succeeded]) => !succeeded).map(([id]) => id).sort(byId),
    disabled: [...disabled].map(([id, disable]) => ({ id, ...disable })).sort((a, b) => byId(a.id, b.id)),
  };
}
