import type { IdempotentPost } from './idempotent-post';
import { useI18n } from './i18n';
import { navigate } from './router';

export const OUTCOMES = ['confirmed', 'failed', 'requires_manual_review'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/**
 * Pays a pending test session with the sandbox simulator, then shows the payment. Under an Idempotency-Key remembered
 * by session and outcome: a retry after a lost answer (a 503) is answered with the payment it made, not a second failed
 * or under-review payment (those leave the session open) with its webhooks sent again.
 */
export async function simulate(post: IdempotentPost, sessionId: string, outcome: Outcome): Promise<void> {
  const result = await post<{ transaction: { id: string } }>('/api/sandbox/simulate', { session_id: sessionId, outcome });
  navigate(`/payments/${result.transaction.id}`);
}

/** The simulator's outcome, chosen from a labelled select. */
export function OutcomeSelect({ value, onChange, id, className }: { value: Outcome; onChange: (outcome: Outcome) => void; id?: string; className?: string }) {
  const { t } = useI18n();
  return (
    <label className={className}>
      {t.outcome}
      <select id={id} value={value} onChange={(event) => onChange(event.target.value as Outcome)}>
        {OUTCOMES.map((outcome) => (
          <option key={outcome} value={outcome}>{outcome}</option>
        ))}
      </select>
    </label>
  );
}
