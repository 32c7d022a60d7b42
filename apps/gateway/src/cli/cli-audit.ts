import { randomUUID } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import { JsonLogger, storeAuditEntry } from '@pp/platform';
import type { DataSource } from 'typeorm';
import { type AdminAuditFact, operatorEntry } from '../admin/operator-audit-entry';
import { AuditEntryRepository } from '../audit/audit-entry.repository';

/** How the CLI reads as the actor, as ADMIN_TOKEN does for the admin API. */
export const CLI_ACTOR = 'gateway CLI';

/**
 * Records an operator command of the gateway's CLI in the audit trail, as the
 * admin API records the same actions (docs/ARCHITECTURE.md "Audit trail"): the
 * actor is the account that ran it, the address the host. Answers whether it
 * was stored; when not, the entry is on stderr as an error log line.
 */
export async function recordCliAction(dataSource: DataSource, fact: AdminAuditFact): Promise<boolean> {
  const entry = operatorEntry({ actor_id: `cli:${accountName()}`.slice(0, 64), actor_email: CLI_ACTOR, request_id: `cli_${randomUUID()}`, address: hostname().slice(0, 64) || 'unknown' }, fact);
  const logger = new JsonLogger('gateway-cli', 'info', (line) => process.stderr.write(line + '\n'));
  // No counter: no Prometheus scrapes a CLI command; the caller exits 1 instead.
  return storeAuditEntry(entry, (toStore) => new AuditEntryRepository(dataSource).append(toStore), logger, null);
}

/** The OS account, or its uid where the container has no passwd entry for it. */
function accountName(): string {
  try {
    return userInfo().username;
  } catch {
    return `uid ${process.getuid?.() ?? 'unknown'}`;
  }
}
