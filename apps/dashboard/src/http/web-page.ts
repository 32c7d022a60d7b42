import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** Where `npm run build` puts the single-page app (tools/build/build.js runs Vite): dist/apps/dashboard/web. */
export const WEB_ROOT = resolve(__dirname, '..', '..', 'web');

/** The page every client-side route loads. */
export function indexHtml(): string {
  const file = resolve(WEB_ROOT, 'index.html');
  if (!existsSync(file)) throw new Error(`the dashboard's web app is not built (${file}); run npm run build`);
  return readFileSync(file, 'utf8');
}
