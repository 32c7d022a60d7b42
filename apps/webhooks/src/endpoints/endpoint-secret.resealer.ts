import { Injectable, type OnModuleInit } from '@nestjs/common';
import { JsonLogger } from '@pp/platform';
import { DataSource } from 'typeorm';
import { EndpointSecrets, resealStep, type SealedSecrets } from './endpoint-secrets';

/**
 * Runs at boot, before deliveries or commands are served: seals secrets stored
 * as plaintext (rows from before sealing) and re-seals those under an older
 * key of WEBHOOK_SECRET_KEYS with the first key, then checks that no row is
 * left unsealed (the service's role may not ALTER the table to VALIDATE the
 * "sealed only" check; new and updated rows are checked by it anyway). Refuses to start when a secret is sealed under a key
 * the configuration no longer lists, since those endpoints could never be
 * signed for again.
 */
@Injectable()
export class EndpointSecretResealer implements OnModuleInit {
  constructor(
    private readonly db: DataSource,
    private readonly secrets: EndpointSecrets,
    private readonly logger: JsonLogger,
  ) {}

  async onModuleInit(): Promise<void> {
    const current = `v1:${this.secrets.ring.currentId}:%`;
    const rows: SealedSecrets[] = await this.db.query(
      `SELECT id, secret_sealed, previous_secret_sealed FROM webhooks.endpoints
        WHERE secret_sealed NOT LIKE $1 OR previous_secret_sealed NOT LIKE $1`,
      [current],
    );
    const missing = new Set<string>();
    for (const row of rows) {
      for (const value of [row.secret_sealed, row.previous_secret_sealed]) {
        const step = value === null ? 'keep' : resealStep(value, this.secrets.ring);
        if (typeof step === 'object') missing.add(step.unknownKey);
      }
    }
    if (missing.size > 0) {
      throw new Error(
        `webhook endpoint secrets are sealed under key id(s) ${[...missing].join(', ')}, which WEBHOOK_SECRET_KEYS does not list ` +
          `(it lists ${this.secrets.ring.ids.join(', ')}): add the missing key(s) after the first one, start once so every secret is re-sealed, then remove them`,
      );
    }
    let resealed = 0;
    for (const row of rows) {
      const secret = this.resealed(row.id, row.secret_sealed);
      const previous = row.previous_secret_sealed && this.resealed(row.id, row.previous_secret_sealed);
      const [, affected] = await this.db.query(
        `UPDATE webhooks.endpoints SET secret_sealed = $4, previous_secret_sealed = $5
          WHERE id = $1 AND secret_sealed = $2 AND previous_secret_sealed IS NOT DISTINCT FROM $3`,
        [row.id, row.secret_sealed, row.previous_secret_sealed, secret, previous],
      );
      resealed += affected; // 0 when a rotation changed the row meanwhile: it was sealed under the current key then
    }
    if (rows.length > 0) this.logger.info('webhook endpoint secrets sealed under the current key', { key_id: this.secrets.ring.currentId, endpoints: resealed });
    const [{ unsealed }] = await this.db.query(
      `SELECT count(*)::int AS unsealed FROM webhooks.endpoints
        WHERE secret_sealed NOT LIKE 'v1:%' OR previous_secret_sealed NOT LIKE 'v1:%'`,
    );
    if (unsealed > 0) throw new Error(`${unsealed} webhook endpoint(s) still hold an unsealed secret after the boot pass; refusing to serve`);
  }

  /** The value sealed under the current key: plaintext is sealed as is, a sealed value is opened first. */
  private resealed(endpointId: string, stored: string): string {
    const step = resealStep(stored, this.secrets.ring);
    if (step === 'keep') return stored;
    return this.secrets.seal(endpointId, step === 'seal_plaintext' ? stored : this.secrets.open(endpointId, stored));
  }
}
