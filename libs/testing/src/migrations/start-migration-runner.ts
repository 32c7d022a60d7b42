import { fork } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../repo-root';

/** Where Jest's global set-up tells the spec files the runner listens (tools/build/jest-global-setup.js). */
export const MIGRATION_RUNNER_ENV = 'TEST_MIGRATION_RUNNER_URL';

export interface MigrationRunner {
  url: string;
  stop(): void;
}

/**
 * Starts the migration runner (migration-runner.main.ts, compiled to dist/)
 * and gives its URL. Jest's global set-up starts one for the whole run; a
 * process without it (the bench) starts its own on its first migration.
 * The runner ends with the process that started it, and never keeps that
 * process alive. Loads nothing but Node's own modules, since the set-up
 * runs in Jest's parent process.
 */
export function startMigrationRunner(): Promise<MigrationRunner> {
  const child = fork(join(REPO_ROOT, 'dist', 'libs', 'testing', 'src', 'migrations', 'migration-runner.main.js'), [], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { port?: number }) => {
      child.unref();
      child.channel?.unref();
      resolve({ url: `http://127.0.0.1:${message.port}/`, stop: () => child.kill() });
    });
    child.once('exit', (code) => reject(new Error(`the migration runner exited with code ${code} before it listened`)));
  });
}
