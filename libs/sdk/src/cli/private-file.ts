import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Writes `content` to `path` whole, readable by its owner only: a new file,
 * created 0600 in a directory created 0700, is renamed over the old one.
 * A reader sees the old content or the new, never part of one (a CLI
 * stopped mid-write would leave the config without its key, or the event
 * cursor unreadable, so that the next run starts after the newest event and
 * skips the ones it missed); and a secret is never in a file that an
 * earlier write left readable to others (`mode` applies only at creation).
 */
export function writePrivateFile(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const fresh = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(fresh, content, { mode: 0o600, flag: 'wx' });
    renameSync(fresh, path);
  } catch (error) {
    rmSync(fresh, { force: true });
    throw error;
  }
}
