/**
 * Node flags every service process runs with (the launcher, the test harness
 * and deploy/Dockerfile pass them; V8 reads them only at start-up), for the
 * major version of the Node that runs it.
 *
 * --max-semi-space-size: the young generation's size, a trade between
 * memory and collections under load (docs/PERFORMANCE.md, "Semi-spaces on
 * Node 24"). On Node 22 and later, 16 MB: start-up's collections
 * (memory/release-unused-memory.ts) give back what start-up grew, so the
 * services stay under 120 MB idle, and under create load V8 collects less
 * often than with 4 MB (Node 24, alternate runs: 10 % less CPU per session,
 * a half-load p99 of 37-38 ms against 64-74; 37-56 ms over six runs). On Node 20,
 * whose V8 ignores the "last resort" collection, 16 MB left the largest
 * service at 138-140 MB idle, so it keeps 4 MB.
 *
 * --expose-gc: for the collections after start-up and when idle
 * (memory/release-unused-memory.ts), in the services and their worker threads.
 * Any code in the process could then call gc(); none of it runs input as code.
 */
export function serviceNodeFlags(nodeMajor: number): readonly string[] {
  return [`--max-semi-space-size=${nodeMajor >= 22 ? 16 : 4}`, '--expose-gc'];
}

/** The flags for the Node running this process, which starts the services with its own executable. */
export const SERVICE_NODE_FLAGS: readonly string[] = serviceNodeFlags(Number(process.versions.node.split('.')[0]));
