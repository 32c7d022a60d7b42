import { basename, dirname, join, relative, resolve } from 'node:path';

/**
 * The compiled worker script `script` that sits next to the module `callerFile`
 * (pass `__filename`). Services run from dist/, where the script is next to
 * the compiled module; under jest the module runs from its TypeScript source,
 * and the script comes from the dist/ build that jest's global set-up makes first.
 */
export function compiledWorkerScript(callerFile: string, script: string): string {
  const dir = dirname(callerFile);
  if (!basename(callerFile).endsWith('.ts')) return join(dir, script);
  const root = resolve(__dirname, '../../../..');
  return join(root, 'dist', relative(root, dir), script);
}
