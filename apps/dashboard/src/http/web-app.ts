import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { WEB_ROOT } from './web-page';

/** Where the hashed asset files are served: the only answers a cache may keep. */
export const WEB_ASSETS_PREFIX = '/assets/';

/**
 * Hashed asset files (immutable). The page itself is answered by WebAppController for the app's routes it lists
 * (WEB_APP_ROUTES), not for every other path: any other is a JSON 404.
 */
export async function serveWebAssets(app: NestFastifyApplication): Promise<void> {
  await app.register(fastifyStatic, {
    root: resolve(WEB_ROOT, 'assets'),
    prefix: WEB_ASSETS_PREFIX,
    immutable: true,
    maxAge: '365d',
    index: false,
    wildcard: false,
  });
}
