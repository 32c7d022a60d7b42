const { randomBytes } = require('node:crypto');
const { existsSync, mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

/**
 * Development tokens for `npm start` when the caller sets none: generated once
 * and kept in .dev/secrets.json (git-ignored), so restarts keep the same ones.
 */
function devSecrets(root) {
  const file = join(root, '.dev', 'secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  const secrets = {
    ADMIN_TOKEN: `adm_${randomBytes(24).toString('hex')}`,
    INGEST_TOKEN: `ing_${randomBytes(24).toString('hex')}`,
  };
  mkdirSync(join(root, '.dev'), { recursive: true });
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

module.exports = { devSecrets };
