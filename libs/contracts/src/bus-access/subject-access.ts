import type { ServiceName } from '../services';

/** Who serves one request-reply subject and who may call it. */
export interface SubjectAccess {
  servedBy: ServiceName;
  /** Services that send this request; nobody else may publish it (the test harness aside). */
  callers: readonly ServiceName[];
}

/**
 * One entry per subject of a domain's map: a missing subject is a compile
 * error, and so is an extra one (object literal checks), so the bus's
 * permissions cannot drift from the typed subjects.
 */
export type SubjectAccessMap<M> = { readonly [S in keyof M & string]: SubjectAccess };
