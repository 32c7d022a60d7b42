#!/usr/bin/env node
// Compiles apps/, libs/, the bench and examples/ to dist/ with swc, and the dashboard's web app with Vite (type-checking is `npm run typecheck`).
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

const checkout = join(__dirname, '..', '..');

/**
 * Runs one build step. Quiet (the launchers, Jest's global set-up): its output is kept and shown
 * only when the step fails, so a syntax error reads as swc's or Vite's own message (file, line),
 * not as "Command failed: …swc.js …" alone.
 */
function step(what, args, root, quiet) {
  if (!quiet) {
    execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
    return;
  }
  try {
    execFileSync(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  } catch (error) {
    process.stderr.write(`${error.stdout ?? ''}${error.stderr ?? ''}`);
    throw new Error(`the build failed: ${what} (${error.status === null || error.status === undefined ? error.signal ?? error.message : `exit code ${error.status}`}); its output is above`);
  }
}

/** `root` is the checkout to build (this one unless a test names a scratch one). */
function build({ quiet = false, root = checkout } = {}) {
  step('swc (apps, libs, tools/bench, examples → dist/)', [require.resolve('@swc/cli/bin/swc.js'), 'apps', 'libs', 'tools/bench', 'examples', '-d', 'dist', '--config-file', '.swcrc.json', ...(quiet ? ['--quiet'] : [])], root, quiet);
  // The dashboard's single-page app (React), served by the dashboard app from dist/apps/dashboard/web.
  step('vite (apps/dashboard/web → dist/apps/dashboard/web)', [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'apps/dashboard/web/vite.config.mjs'], root, quiet);
}

module.exports = { build };
if (require.main === module) build();
