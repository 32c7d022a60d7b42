import { fork } from 'node:child_process';
import { join } from 'node:path';

/** Where Jest's global set-up tells the spec files the runner listens (tools/build/jest-global-setup.js). */
export const MIGRATION_RUNNER_ENV = 'TEST_MIGRATION_RUNNER_URL';

/**
 * Starts the migration runner (migration-runner.main.ts) and gives its URL
 * and a way to stop it. Called once per Jest run, by the global set-up,
 * from dist/ (so the runner is the compiled file beside this one); it loads
 * nothing but Node's own modules, since the set-up runs in Jest's parent process.
 */
export function startMigrationRunner(): Promise<{ url: string; stop: () => void }> {
  const child = fork(join(__dirname, 'migration-runner.main.js'), [], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { port?: number }) => {
      resolve({ url: `http://127.0.0.1:${message.port}/`, stop: () => child.kill() });
    });
    child.once('exit', (code) => reject(new Error(`the migration runner exited with code ${code} before it listened`)));
  });
}
