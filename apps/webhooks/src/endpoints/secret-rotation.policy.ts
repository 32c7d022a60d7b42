/** What the rule needs to know of the endpoint's secret rotated out last. */
export interface RotatedSecrets {
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
}

/**
 * Why the endpoint's secret may not be rotated now, or null when it may. An
 * endpoint signs with two secrets at most, the current one and the one it
 * replaced; rotating while the replaced one still signs would drop it at
 * once, and a receiver that still trusts only it (it was promised until
 * then) would refuse every delivery. A rotation that stops the current
 * secret at once (`overlapSeconds` 0: it leaked) asks for no overlap at all,
 * so it may drop the older one too.
 */
export function rotationRefusal(endpoint: RotatedSecrets, overlapSeconds: number, now: Date): string | null {
  const until = endpoint.previous_secret_expires_at;
  if (overlapSeconds === 0 || !endpoint.previous_secret_sealed || !until || until <= now) return null;
  return (
    `The secret replaced by the last rotation still signs deliveries until ${until.toISOString()}; ` +
    'rotate again after that, or now with previous_secret_expires_in 0 to stop the current secret at once (the replaced one stops too)'
  );
}
