import type { ServiceName } from '@pp/contracts';

/**
 * The Postgres roles of a deployment (docs/ARCHITECTURE.md, "Tables"):
 * `pp_owner` owns the database, the schemas and every table and runs the
 * migrations; each service that keeps data logs in as `pp_<service>`, owns
 * nothing and holds only the grants of its own schema. Roles are
 * cluster-wide, so one Postgres cluster serves one deployment (test databases
 * of one cluster share the roles; grants are per database).
 */
export const OWNER_ROLE = 'pp_owner';

/** The services with a schema of their own (each has apps/<service>/src/migrate.ts). */
export const DATABASE_SERVICES = ['gateway', 'ledger', 'ingest', 'webhooks'] as const satisfies readonly ServiceName[];
export type DatabaseService = (typeof DATABASE_SERVICES)[number];

export const serviceRole = (service: ServiceName): string => `pp_${service}`;

export const isDatabaseService = (service: ServiceName): service is DatabaseService =>
  (DATABASE_SERVICES as readonly ServiceName[]).includes(service);

/** A connection URL for the same server and database as `url`, logging in as `role`. */
export function roleUrl(url: string, role: string, password?: string): string {
  const next = new URL(url);
  next.username = role;
  next.password = password ? encodeURIComponent(password) : '';
  return next.href;
}
