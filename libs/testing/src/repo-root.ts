import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The checkout's root: the nearest folder above with a package.json (this file also runs compiled, from dist/). */
export const REPO_ROOT = (() => {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
})();
