/** A submission of an action whose outcome is not known yet: what it sent, and under which Idempotency-Key. */
export interface Unsettled {
  input: string;
  key: string;
}

/**
 * The Idempotency-Key to submit `input` with: the unsettled submission's when this is that same submission again (the
 * user retrying it), so the server answers what the first one made instead of making it twice; a new key for a new
 * action, or for changed input, which is another action.
 */
export function idempotencyKeyFor(unsettled: Unsettled | undefined, input: string, newKey: () => string): string {
  return unsettled?.input === input ? unsettled.key : newKey();
}

/**
 * Whether a submission that failed may have done its work all the same, so its retry must send its key again: no
 * answer at all (`status` undefined), or a 5xx (a 503 when the service answered after the dashboard's deadline, or
 * made the change but could not record it). A 4xx is a definite refusal: what follows is a new submission.
 */
export const outcomeUnknown = (status: number | undefined): boolean => status === undefined || status >= 500;
