import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, KeyRing } from '@pp/platform';
import type { WebhooksConfig } from '../webhooks.config';

/** The sealed secret columns of an endpoint row. */
export interface SealedSecrets {
  id: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
}

/** What the boot pass does with one stored value (see EndpointSecretResealer). */
export type ResealStep = 'keep' | 'seal_plaintext' | 'reseal' | { unknownKey: string };

/** A value sealed under the current key is kept; one under an older configured key is re-sealed; plaintext from before sealing is sealed. */
export function resealStep(stored: string, ring: Pick<KeyRing, 'currentId' | 'has'>): ResealStep {
  const keyId = KeyRing.keyIdOf(stored);
  if (keyId === undefined) return 'seal_plaintext';
  if (keyId === ring.currentId) return 'keep';
  return ring.has(keyId) ? 'reseal' : { unknownKey: keyId };
}

/**
 * Seals and opens endpoint signing secrets with WEBHOOK_SECRET_KEYS. Each
 * value is bound to its endpoint id, so a sealed secret copied onto another
 * row does not open there.
 */
@Injectable()
export class EndpointSecrets {
  readonly ring: KeyRing;

  constructor(@Inject(CONFIG) config: WebhooksConfig) {
    this.ring = KeyRing.parse(config.WEBHOOK_SECRET_KEYS) as KeyRing; // validated at boot
  }

  seal(endpointId: string, secret: string): string {
    return this.ring.seal(secret, context(endpointId));
  }

  open(endpointId: string, sealed: string): string {
    return this.ring.open(sealed, context(endpointId));
  }

  /** Secrets that sign a delivery at `now`, newest first: the previous one only during its rotation overlap. */
  signingSecrets(row: SealedSecrets, now: Date): string[] {
    const previousValid = row.previous_secret_sealed && row.previous_secret_expires_at && row.previous_secret_expires_at > now;
    const current = this.open(row.id, row.secret_sealed);
    return previousValid ? [current, this.open(row.id, row.previous_secret_sealed as string)] : [current];
  }
}

const context = (endpointId: string) => `webhooks.endpoints/${endpointId}`;
