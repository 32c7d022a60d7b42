'use strict';
/** Files the launcher keeps secrets in (.dev/, git-ignored): readable by this user alone. */
const { chmodSync, mkdirSync, writeFileSync } = require('node:fs');
const { dirname } = require('node:path');

/** Writes `text` with mode 600, also when the file existed with wider permissions (writeFileSync's mode applies only to a new file). */
function writePrivateFile(file, text) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text, { mode: 0o600 });
  chmodSync(file, 0o600);
}

module.exports = { writePrivateFile };
