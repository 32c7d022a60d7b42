'use strict';
/**
 * tmp/setup.lock: one launcher at a time sets up what all of them share (the
 * servers it starts, the NATS identities and their server's config, the
 * Postgres roles and their passwords in .dev/). Each of those reads a file,
 * makes what is missing and writes it back: two launchers at once (`npm start`
 * beside `npm test` on a fresh checkout) would each make their own, and the
 * one whose file lost would run with passwords nothing accepts. The lock file
 * names its launcher (pid and start time, as the pid file does); a launcher
 * that died holding it is taken over.
 */
const { mkdirSync, readFileSync, rmSync } = require('node:fs');
const { join } = require('node:path');
const out = require('./console');
const { createExclusively, launcherAlive, startTime } = require('./pid-file');

const POLL_MS = 250;
const WAIT_LIMIT_MS = 15 * 60_000;

/** Runs `work` holding the lock: waits, saying so once, while another live launcher holds it. */
async function withSetupLock(root, work, { waitLimitMs = WAIT_LIMIT_MS } = {}) {
  const file = join(root, 'tmp', 'setup.lock');
  mkdirSync(join(root, 'tmp'), { recursive: true });
  const record = JSON.stringify({ launcher: process.pid, started: startTime(process.pid) });
  const giveUpAt = Date.now() + waitLimitMs;
  let told = false;
  while (!createExclusively(file, record)) {
    const text = readIfThere(file);
    if (text === undefined) continue; // released meanwhile: take it
    let holder;
    try {
      holder = JSON.parse(text);
    } catch {
      holder = { launcher: 0 }; // not a launcher's: nobody holds it
    }
    if (!launcherAlive(holder)) {
      // Removed only while it still holds what was read: another launcher may have just taken it over.
      if (readIfThere(file) === text) rmSync(file, { force: true });
      continue;
    }
    if (Date.now() > giveUpAt) throw new Error(`another launcher (pid ${holder.launcher}) has been setting up for ${Math.round(waitLimitMs / 60_000)} minutes; stop it, or remove ${file} if it is not a launcher`);
    if (!told) out.info(`waiting for another launcher (pid ${holder.launcher}) to finish setting up the servers, roles and identities ...`);
    told = true;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  try {
    return await work();
  } finally {
    if (readIfThere(file) === record) rmSync(file, { force: true });
  }
}

/** The file's text, or undefined when there is no file; any other failure (a lock this user cannot read) is thrown. */
function readIfThere(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  }
}

module.exports = { withSetupLock };
