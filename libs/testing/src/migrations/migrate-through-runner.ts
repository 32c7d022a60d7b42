import type { DatabaseService } from '@pp/platform';
import { MIGRATION_RUNNER_ENV, startMigrationRunner } from './start-migration-runner';

/** How long one migration may take before the spec's set-up fails. */
const MIGRATE_TIMEOUT_MS = 60_000;

let ownRunner: Promise<string> | undefined;

/** The Jest run's runner, or else (the bench, a Jest run without its global set-up) one of this process's own. */
function runnerUrl(): Promise<string> {
  const shared = process.env[MIGRATION_RUNNER_ENV];
  if (shared) return Promise.resolve(shared);
  return (ownRunner ??= startMigrationRunner().then((runner) => runner.url));
}

/**
 * Migrates `service`'s schema in the database `ownerUrl` names, as its
 * owner, through a migration runner (migration-runner.main.ts).
 */
export async function migrateThroughRunner(service: DatabaseService, ownerUrl: string): Promise<void> {
  const response = await fetch(await runnerUrl(), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ service, url: ownerUrl }),
    signal: AbortSignal.timeout(MIGRATE_TIMEOUT_MS),
  });
  const answer = (await response.json()) as { error?: string };
  if (!response.ok) throw new Error(`migrating ${service} failed: ${answer.error ?? response.status}`);
}
