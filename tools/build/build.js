#!/usr/bin/env node
// Compiles apps/, libs/ and the bench to dist/ with swc (type-checking is `npm run typecheck`).
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

const root = join(__dirname, '..', '..');
function build({ quiet = false } = {}) {
  execFileSync(
    process.execPath,
    [require.resolve('@swc/cli/bin/swc.js'), 'apps', 'libs', 'tools/bench', '-d', 'dist', '--config-file', '.swcrc.json', ...(quiet ? ['--quiet'] : [])],
    { cwd: root, stdio: quiet ? 'ignore' : 'inherit' },
  );
}

module.exports = { build };
if (require.main === module) build();
