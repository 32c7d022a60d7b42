import { attributeSamples, type CpuProfile, GARBAGE_COLLECTION, NO_PROJECT_FRAME, projectFolder, sharesByFolder, summarizeProfiles } from './profile-summary';
import type { BenchReport } from './report';

const DIST = 'file:///repo/dist';
const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({ id, callFrame: { functionName, url }, children });

/**
 * A gateway-like tree: Fastify runs the idempotency hook, which calls ioredis and the platform's crypto; the
 * runtime parses HTTP on its own; the collector and idle samples sit under the root.
 */
const NODES = [
  frame(1, '(root)', '', [2, 6, 7, 8]),
  frame(2, 'hookRunner', 'file:///repo/node_modules/fastify/lib/hooks.js', [3]),
  frame(3, 'reserve', `${DIST}/apps/gateway/src/idempotency/idempotency.hooks.js`, [4, 5]),
  frame(4, 'sendCommand', 'file:///repo/node_modules/ioredis/built/Redis.js'),
  frame(5, 'keyedDigest', `${DIST}/libs/platform/src/crypto/server-keys.js`, [9]),
  frame(6, '(garbage collector)', ''),
  frame(7, '(idle)', ''),
  frame(8, 'parserOnHeadersComplete', 'node:_http_common'),
  frame(9, 'Hmac', 'node:internal/crypto/hash'),
];

/** One sample a millisecond from t = 1,000,000 µs, on the given leaves. */
function profileOf(leaves: number[], startTime = 1_000_000): CpuProfile {
  return { nodes: NODES, startTime, endTime: startTime + leaves.length * 1000, samples: leaves, timeDeltas: leaves.map(() => 1000) };
}

const asObject = (shares: ReturnType<typeof sharesByFolder>) => Object.fromEntries(shares.map((share) => [share.folder, share.samples]));

describe('where a profile\'s busy samples went, by the project\'s folders', () => {
  it('given a compiled file\'s address, then its folder under dist is the project folder; elsewhere there is none', () => {
    expect(projectFolder(`${DIST}/apps/gateway/src/idempotency/idempotency.hooks.js`)).toBe('apps/gateway/src/idempotency');
    expect(projectFolder(`${DIST}/apps/gateway/src/main.js`)).toBe('apps/gateway/src');
    expect(projectFolder('file:///repo/node_modules/fastify/lib/hooks.js')).toBeUndefined();
    expect(projectFolder('node:_http_common')).toBeUndefined();
  });

  it('given library and crypto work called by the project\'s code, then it counts for the innermost project frame\'s folder', () => {
    const shares = sharesByFolder(attributeSamples(profileOf([4, 4, 9, 3])), 0, Number.MAX_SAFE_INTEGER);

    expect(asObject(shares)).toEqual({ 'apps/gateway/src/idempotency': 3, 'libs/platform/src/crypto': 1 });
    expect(shares[0].folder).toBe('apps/gateway/src/idempotency');
  });

  it('given garbage collection and the runtime\'s own work, then each counts apart, and idle samples not at all', () => {
    const shares = sharesByFolder(attributeSamples(profileOf([6, 8, 8, 7, 7, 7])), 0, Number.MAX_SAFE_INTEGER);

    expect(asObject(shares)).toEqual({ [GARBAGE_COLLECTION]: 1, [NO_PROJECT_FRAME]: 2 });
  });

  it('given a window, when samples fall before or after it, then only those inside count', () => {
    // Samples at 1,001,000 … 1,006,000 µs; the window [1,002,000, 1,004,000) holds the 2nd and 3rd.
    const shares = sharesByFolder(attributeSamples(profileOf([4, 9, 8, 4, 4, 4])), 1_002_000, 1_004_000);

    expect(asObject(shares)).toEqual({ 'libs/platform/src/crypto': 1, [NO_PROJECT_FRAME]: 1 });
  });

  it('given a report with CPU windows, when the profiles are summarized, then each path lists the services whose profile covers its window', () => {
    const report = {
      rows: [
        { path: 'create session, max load', profile_window_us: [1_000_000, 1_010_000] },
        { path: 'idle RSS, largest service' },
        { path: 'a later path', profile_window_us: [5_000_000, 6_000_000] },
      ],
    } as unknown as BenchReport;
    const profiles = [
      { name: 'gateway.10.0', profile: profileOf([4, 4, 4, 8, 7, 7, 7, 7, 7, 7]) },
      { name: 'ledger.11.0', profile: profileOf([8], 1_005_000) }, // started after the window opened
    ];

    const summary = summarizeProfiles(report, profiles, { minSamples: 1 });

    expect(summary).toBe(`create session, max load\n  gateway.10.0 (4 busy samples): apps/gateway/src/idempotency 75.0 %, ${NO_PROJECT_FRAME} 25.0 %\n`);
  });

  it('given services with fewer busy samples in a window than asked, then they are left out, and the summary says why it is empty', () => {
    const report = { rows: [{ path: 'create session, max load', profile_window_us: [1_000_000, 1_010_000] }] } as unknown as BenchReport;

    const summary = summarizeProfiles(report, [{ name: 'checkout.12.0', profile: profileOf([6, 6, 7, 7]) }], { minSamples: 3 });

    expect(summary).toBe("no service's profile covers a path of this report with 3 busy samples or more (profiles come from a run with BENCH_PROFILE=true)\n");
  });
});
