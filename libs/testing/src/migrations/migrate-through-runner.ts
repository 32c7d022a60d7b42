import type { DatabaseService } from '@pp/platform';
import { MIGRATION_RUNNER_ENV } from './start-migration-runner';

/** How long one migration may take before the spec's set-up fails. */
const MIGRATE_TIMEOUT_MS = 60_000;

/**
 * Migrates `service`'s schema in the database `ownerUrl` names, as its
 * owner, through the runner this Jest run started (migration-runner.main.ts).
 */
export async function migrateThroughRunner(service: DatabaseService, ownerUrl: string): Promise<void> {
  const runner = process.env[MIGRATION_RUNNER_ENV];
  if (!runner) throw new Error(`${MIGRATION_RUNNER_ENV} is not set: run Jest with its global set-up (jest.config.js), which starts the migration runner`);
  const response = await fetch(runner, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ service, url: ownerUrl }),
    signal: AbortSignal.timeout(MIGRATE_TIMEOUT_MS),
  });
  const answer = (await response.json()) as { error?: string };
  if (!response.ok) throw new Error(`migrating ${service} failed: ${answer.error ?? response.status}`);
}
