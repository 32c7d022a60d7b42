/**
 * The test harness's migration runner: one process for a whole Jest run
 * (started by tools/build/jest-global-setup.js) that migrates each spec's
 * database on request, with the same code as a service's migrate command
 * (`migrateDatabase`, as the owner role). A migrate command per database
 * loaded TypeORM and the service's migrations afresh each time, about 0.9 s
 * of CPU for some 50 ms of Postgres work, some 200 times a CI run.
 *
 * POST / with `{ "service": "ledger", "url": "<owner URL>" }` answers 200
 * `{ "applied": [...] }` or 500 `{ "error": "..." }`. It listens on
 * 127.0.0.1 only, tells its parent the port over IPC, and ends with its
 * parent.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { isDatabaseService, type ServiceDatabase } from '@pp/platform';
import { migrateDatabase } from '@pp/platform/typeorm';
import { REPO_ROOT } from '../repo-root';

const MAX_REQUEST_BYTES = 64 * 1024;

/** A service's schema definition, compiled to dist/ (apps/<service>/src/database/<service>.database.ts). */
async function serviceDatabase(service: string): Promise<ServiceDatabase> {
  if (!isDatabaseService(service as never)) throw new Error(`${service} has no schema of its own`);
  const exports = (await import(join(REPO_ROOT, 'dist', 'apps', service, 'src', 'database', `${service}.database.js`))) as Record<string, unknown>;
  const database = Object.values(exports).find((value): value is ServiceDatabase => (value as ServiceDatabase | undefined)?.service === service);
  if (!database) throw new Error(`apps/${service}/src/database/${service}.database.ts exports no ServiceDatabase of ${service}`);
  return database;
}

async function readJson(request: IncomingMessage): Promise<{ service: string; url: string }> {
  let body = '';
  for await (const chunk of request) {
    body += chunk;
    if (body.length > MAX_REQUEST_BYTES) throw new Error('request too large');
  }
  const parsed = JSON.parse(body) as { service?: unknown; url?: unknown };
  if (typeof parsed.service !== 'string' || typeof parsed.url !== 'string') throw new Error('send { service, url }');
  return { service: parsed.service, url: parsed.url };
}

const server = createServer((request, response) => {
  readJson(request)
    .then(async ({ service, url }) => migrateDatabase(await serviceDatabase(service), url))
    .then(
      (applied) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ applied })),
      (error: unknown) =>
        response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: error instanceof Error ? error.message : String(error) })),
    );
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
});
// The Jest run that started it is gone (ended or killed): so is its purpose.
process.on('disconnect', () => process.exit(0));
