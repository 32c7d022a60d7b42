/**
 * Node flags every service process runs with (the launcher, the test harness
 * and deploy/Dockerfile pass them; V8 reads them only at start-up).
 *
 * --max-semi-space-size=4: V8 lets the young generation grow to 3 × 16 MB
 * and keeps it committed, which is most of a service's resident memory once
 * start-up garbage has come and gone. 4 MB semi-spaces keep every service
 * under 120 MB idle (docs/PERFORMANCE.md); requests allocate little that
 * lives, so the extra scavenges cost little.
 *
 * --expose-gc: for the collections after start-up (release-unused-memory.ts).
 * Any code in the process could then call gc(); none of it runs input as code.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4', '--expose-gc'];
