const { randomBytes } = require('node:crypto');
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const { writePrivateFile } = require('./private-file');

/** Each development secret and how to make a fresh one. */
const GENERATORS = {
  ADMIN_TOKEN: () => `adm_${randomBytes(24).toString('hex')}`,
  INGEST_TOKEN: () => `ing_${randomBytes(24).toString('hex')}`,
  // Hex, as OPERATIONS.md advises: its letters spell none of the placeholder words the gateway refuses.
  SERVER_SECRET: () => randomBytes(32).toString('hex'),
  WEBHOOK_SECRET_KEYS: () => `dev1:${randomBytes(32).toString('base64')}`,
};

/**
 * Development secrets for `npm start` when the caller sets none: generated once
 * and kept in .dev/secrets.json (git-ignored), so restarts keep the same ones
 * (webhook secrets sealed under WEBHOOK_SECRET_KEYS stay readable). A file
 * from an older checkout gets the secrets it lacks added.
 */
function devSecrets(root) {
  const file = join(root, '.dev', 'secrets.json');
  const secrets = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const missing = Object.keys(GENERATORS).filter((name) => !secrets[name]);
  if (missing.length === 0) return secrets;
  for (const name of missing) secrets[name] = GENERATORS[name]();
  writePrivateFile(file, JSON.stringify(secrets, null, 2));
  return secrets;
}

module.exports = { devSecrets };
