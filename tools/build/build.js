#!/usr/bin/env node
// Compiles apps/, libs/, the bench and examples/ to dist/ with swc, and the dashboard's web app with Vite (type-checking is `npm run typecheck`).
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

const root = join(__dirname, '..', '..');
function build({ quiet = false } = {}) {
  execFileSync(
    process.execPath,
    [require.resolve('@swc/cli/bin/swc.js'), 'apps', 'libs', 'tools/bench', 'examples', '-d', 'dist', '--config-file', '.swcrc.json', ...(quiet ? ['--quiet'] : [])],
    { cwd: root, stdio: quiet ? 'ignore' : 'inherit' },
  );
  // The dashboard's single-page app (React), served by the dashboard app from dist/apps/dashboard/web.
  execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'apps/dashboard/web/vite.config.mjs'], {
    cwd: root,
    stdio: quiet ? 'ignore' : 'inherit',
  });
}

module.exports = { build };
if (require.main === module) build();
