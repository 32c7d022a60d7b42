'use strict';
/**
 * The launcher's pid file, tmp/services-<gateway port>.pids: which launcher
 * runs the stack on that port, and its services' pids. While that launcher
 * lives, another `npm start` on the same port refuses to start; once it is
 * gone (killed outright), the next one stops the services it left behind.
 * One file per gateway port, so two stacks from one checkout (dev + tests)
 * never reap each other.
 *
 * The file is JSON: { launcher, started, services }. `started` is the
 * launcher's start time (/proc/<pid>/stat), so a pid the system has since
 * given to another process does not count as the launcher still running.
 */
const { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { randomBytes } = require('node:crypto');
const { dirname, join } = require('node:path');
const out = require('./console');

/** A process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat), or undefined without /proc or the process. */
function startTime(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Whether the process that wrote `record` still runs (the same pid and start time). */
function launcherAlive(record) {
  if (!(record.launcher > 0)) return false;
  if (existsSync('/proc/self/stat')) {
    const started = startTime(record.launcher);
    return started !== undefined && (record.started === undefined || started === record.started);
  }
  try {
    process.kill(record.launcher, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** The file's record; a file of an older launcher (service pids only, one a line) reads as one whose launcher is gone. */
function parseRecord(text) {
  try {
    const record = JSON.parse(text);
    if (record && typeof record === 'object' && !Array.isArray(record)) return { services: [], ...record };
  } catch {
    // an older launcher's list of pids
  }
  return { launcher: 0, services: text.split(/\s+/).filter(Boolean).map(Number) };
}

/** Writes `text` to a fresh file ('wx') and links it into place as `file`, which fails if `file` exists: no reader sees it half written. */
function createExclusively(file, text) {
  const fresh = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(fresh, text, { flag: 'wx' });
  try {
    linkSync(fresh, file);
    return true;
  } catch (error) {
    if (error.code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(fresh, { force: true });
  }
}

class PidFile {
  constructor(root, gatewayPort) {
    this.root = root;
    this.gatewayPort = gatewayPort;
    this.file = join(root, 'tmp', `services-${gatewayPort}.pids`);
    this.record = { launcher: process.pid, started: startTime(process.pid), services: [] };
    this.owned = false;
  }

  /**
   * Makes the file this launcher's, created exclusively: throws "already running (pid N); stop it first"
   * while the launcher named in it runs; stops the services of one that is gone, then takes its place.
   */
  claim() {
    mkdirSync(dirname(this.file), { recursive: true });
    for (let attempt = 0; attempt < 5; attempt++) {
      if (this.createExclusively()) {
        this.owned = true;
        return;
      }
      let text;
      try {
        text = readFileSync(this.file, 'utf8');
      } catch {
        continue; // removed meanwhile: try again
      }
      const record = parseRecord(text);
      if (record.launcher === process.pid) {
        this.owned = true;
        return;
      }
      if (launcherAlive(record)) {
        throw new Error(`npm start on gateway port ${this.gatewayPort} is already running (pid ${record.launcher}); stop it first (Ctrl-C in its terminal, or kill ${record.launcher})`);
      }
      this.reap(record.services);
      // Remove the file only while it still holds what was read: another launcher may have just replaced it.
      try {
        if (readFileSync(this.file, 'utf8') === text) rmSync(this.file, { force: true });
      } catch {
        // gone already
      }
    }
    throw new Error(`could not take ${this.file}: other launchers keep replacing it`);
  }

  createExclusively() {
    return createExclusively(this.file, JSON.stringify(this.record));
  }

  /** Kills the services a launcher that is gone left behind (each checked to be one of this checkout's services). */
  reap(pids) {
    for (const pid of pids) {
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        if (cmdline.includes(join(this.root, 'dist', 'apps'))) {
          process.kill(pid, 'SIGKILL');
          out.info(`stopped a service left over from an earlier run (pid ${pid})`);
        }
      } catch {
        // already gone
      }
    }
  }

  /** Records the services this launcher started (the file replaced whole). */
  recordServices(pids) {
    if (!this.owned) throw new Error(`${this.file} is not this launcher's: claim it first`);
    this.record = { ...this.record, services: pids };
    const fresh = `${this.file}.${process.pid}.tmp`;
    writeFileSync(fresh, JSON.stringify(this.record));
    renameSync(fresh, this.file);
  }

  /** Whether services were recorded and not yet released. */
  holdsServices() {
    return this.owned && this.record.services.length > 0;
  }

  /** Removes the file if it is still this launcher's (never another launcher's). */
  release() {
    if (!this.owned) return;
    this.owned = false;
    try {
      if (parseRecord(readFileSync(this.file, 'utf8')).launcher === process.pid) rmSync(this.file, { force: true });
    } catch {
      // gone already
    }
  }
}

module.exports = { PidFile, createExclusively, launcherAlive, startTime };
