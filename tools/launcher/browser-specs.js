/**
 * Whether a Jest run may need Chromium: the specs that drive it (they call launchBrowser) are among those selected.
 * With no arguments every spec runs; with path patterns only (Jest's positional arguments: regular expressions that
 * Jest 30 matches, ignoring case, against each spec's path from the repository's root, and, to be safe, its absolute
 * one) those that match; with any option (`-t`, `--testPathPatterns`, …) the run is taken to need it, as the option
 * may select a browser spec in ways not worth reading here.
 */
const { readdirSync, readFileSync } = require('node:fs');
const { join, relative } = require('node:path');

const SPEC_ROOTS = ['apps', 'libs', 'tools', 'deploy'];

function browserSpecs(root) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules') walk(path);
      else if (entry.name.endsWith('.spec.ts') && readFileSync(path, 'utf8').includes('launchBrowser(')) found.push(path);
    }
  };
  for (const dir of SPEC_ROOTS) walk(join(root, dir));
  return found;
}

function selectsBrowserSpecs(root, jestArgs) {
  if (jestArgs.length === 0 || jestArgs.some((arg) => arg.startsWith('-'))) return true;
  const matchers = jestArgs.map((pattern) => {
    try {
      const regex = new RegExp(pattern, 'i');
      return (path) => regex.test(path);
    } catch {
      return (path) => path.toLowerCase().includes(pattern.toLowerCase());
    }
  });
  return browserSpecs(root).some((path) => matchers.some((matches) => matches(relative(root, path)) || matches(path)));
}

module.exports = { selectsBrowserSpecs };
