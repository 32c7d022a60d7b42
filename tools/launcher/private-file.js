'use strict';
/** Files the launcher keeps secrets in (.dev/, git-ignored): readable by this user alone. */
const { randomBytes } = require('node:crypto');
const { mkdirSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { dirname } = require('node:path');

/**
 * Writes `text` to `file` whole, with mode 600: a new file, created 600 (a directory it needs, 700),
 * is renamed over the old one. So the secret never lands in a file an earlier write left readable to
 * others (writeFileSync's mode applies only to a new file), and a reader, or a launcher stopped
 * mid-write, sees the old content or the new, never a truncated file.
 */
function writePrivateFile(file, text) {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const fresh = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(fresh, text, { mode: 0o600, flag: 'wx' });
    renameSync(fresh, file);
  } catch (error) {
    rmSync(fresh, { force: true });
    throw error;
  }
}

module.exports = { writePrivateFile };
