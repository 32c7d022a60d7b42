import { createHash, randomUUID } from 'node:crypto';
import type { Pool } from 'pg';

/**
 * For repository specs: stores a minimal e-mail received at `receivedAt` (with `headers` above its Message-ID), as
 * the owner would (no outcome); answers its id.
 */
export async function storeEmailAt(admin: Pool, receivedAt: Date, headers: string[] = []): Promise<string> {
  const id = `em_${randomUUID().replace(/-/g, '')}`;
  const raw = Buffer.from([...headers, `Message-ID: <${id}@payments.interac.ca>`, '', 'body'].join('\r\n'));
  await admin.query(`INSERT INTO ingest.emails (id, raw, raw_sha256, size_bytes, channel, received_at) VALUES ($1, $2, $3, $4, 'bus', $5)`, [
    id,
    raw,
    createHash('sha256').update(raw).digest('hex'),
    raw.length,
    receivedAt,
  ]);
  return id;
}
