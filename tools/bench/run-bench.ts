import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_NAMES } from '@pp/contracts';
import { TestStack } from '@pp/testing';
import { startBaselineServer } from './baseline-server';
import { type LoadResult, pacedLoad, postLoad } from './load';
import { measureIdleMemory } from './memory';
import { measureWebhookLatency } from './webhook-latency';

/**
 * `npm run bench` (PRODUCT-RULES §D6): measures each path side by side with its
 * baseline in one run on this machine, prints a table and writes a JSON
 * report to bench/reports/ so two runs can be compared. Figures only; nothing
 * here is a pass/fail test.
 */

interface Row {
  path: string;
  throughput: string;
  p50_ms: number | null;
  p99_ms: number | null;
  baseline: string;
  ratio: string;
  detail?: Record<string, unknown>;
}

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/**
 * Load before each measured path (baseline included), so both are measured
 * with their code optimised by the JIT rather than while it compiles: the
 * services run much more JavaScript per request than the baseline, and their
 * first seconds under load cost up to twice as much CPU per request.
 */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 10);
const WEBHOOK_PAYMENTS = Number(process.env.BENCH_WEBHOOK_PAYMENTS ?? 200);

const sessionBody = () => ({
  amount: 2500,
  currency: 'cad',
  reference: `bench-${randomUUID()}`,
  success_url: 'https://merchant.example/thanks',
  cancel_url: 'https://merchant.example/cart',
  metadata: { order: '1001' },
});

async function main(): Promise<void> {
  const rows: Row[] = [];
  const readyStarted = Date.now();
  const stack = await TestStack.start({
    services: SERVICE_NAMES,
    label: 'bench',
    env: { LOG_LEVEL: 'warn', RATE_LIMIT_TEST_PER_SECOND: '100000', RATE_LIMIT_LIVE_PER_SECOND: '100000' },
  });
  const readyMs = Date.now() - readyStarted;
  try {
    const memory = await measureIdleMemory(stack);
    rows.push({
      path: 'idle memory (max RSS of one service)',
      throughput: '-',
      p50_ms: null,
      p99_ms: null,
      baseline: '120 MB target',
      ratio: `${Math.max(...Object.values(memory))} MB`,
      detail: { rss_mb: memory, stack_ready_ms: readyMs },
    });

    const testKey = await createMerchantKey(stack);
    const baseline = await startBaselineServer(stack.database.url);
    try {
      const log = (text: string) => process.stderr.write(`bench: ${text}\n`);
      log(`warm-up (${WARMUP_SECONDS} s) and baseline (${SECONDS} s, ${CONNECTIONS} connections)`);
      await postLoad({ url: `${baseline.url}/`, body: sessionBody, seconds: WARMUP_SECONDS, connections: CONNECTIONS });
      const base = await postLoad({ url: `${baseline.url}/`, body: sessionBody, seconds: SECONDS, connections: CONNECTIONS });
      const gatewayUrl = `${stack.url('gateway')}/v1/checkout/sessions`;
      const auth = { authorization: `Bearer ${testKey}` };
      log('create session through the gateway');
      await postLoad({ url: gatewayUrl, headers: auth, body: sessionBody, seconds: WARMUP_SECONDS, connections: CONNECTIONS });
      const full = await postLoad({ url: gatewayUrl, headers: auth, body: sessionBody, seconds: SECONDS, connections: CONNECTIONS });
      log('create session at half of the measured maximum');
      const half = await pacedLoad({
        url: gatewayUrl,
        headers: auth,
        body: sessionBody,
        seconds: SECONDS,
        connections: CONNECTIONS,
        rate: Math.max(1, Math.floor(full.requests_per_second / 2)),
      });
      rows.push(row('baseline: one-process HTTP + single pg insert', base, base));
      rows.push(row('create session (gateway → sessions → ledger → pg), max load', full, base));
      rows.push({ ...row('create session at half of max load', half, base), ratio: '-' });

      log(`simulate-payment → signed webhook at a local receiver (${WEBHOOK_PAYMENTS} payments, one at a time)`);
      const webhook = await measureWebhookLatency(stack.url('gateway'), testKey, WEBHOOK_PAYMENTS);
      rows.push({
        path: 'simulate-payment → signed webhook received',
        throughput: '-',
        p50_ms: webhook.p50_ms,
        p99_ms: webhook.p99_ms,
        baseline: 'p50 ≤ 10, p99 ≤ 50 target',
        ratio: '-',
        detail: { samples: webhook.samples, unverified: webhook.unverified },
      });
    } finally {
      await baseline.close();
    }
  } finally {
    await stack.stop();
  }
  print(rows);
  const dir = join(__dirname, '..', '..', '..', 'bench', 'reports');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), seconds: SECONDS, warmup_seconds: WARMUP_SECONDS, connections: CONNECTIONS, rows }, null, 2));
  process.stdout.write(`\nreport: ${file}\n`);
}

function row(path: string, result: LoadResult, baseline: LoadResult): Row {
  return {
    path,
    throughput: `${result.requests_per_second} req/s`,
    p50_ms: result.p50_ms,
    p99_ms: result.p99_ms,
    baseline: `${baseline.requests_per_second} req/s`,
    ratio: `${(result.requests_per_second / baseline.requests_per_second).toFixed(2)}x`,
    detail: { non_2xx: result.non_2xx, errors: result.errors },
  };
}

async function createMerchantKey(stack: TestStack): Promise<string> {
  const response = await fetch(`${stack.url('gateway')}/v1/admin/merchants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.env.ADMIN_TOKEN}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({ name: 'Bench Merchant', email: `bench-${randomUUID()}@example.com` }),
  });
  if (response.status !== 201) throw new Error(`creating the bench merchant failed: ${response.status} ${await response.text()}`);
  const created = (await response.json()) as { keys: { test_secret: string } };
  return created.keys.test_secret;
}

function print(rows: Row[]): void {
  const headers = ['path', 'throughput', 'p50 ms', 'p99 ms', 'baseline', 'ratio'];
  const cells = rows.map((r) => [r.path, r.throughput, String(r.p50_ms ?? '-'), String(r.p99_ms ?? '-'), r.baseline, r.ratio]);
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i])).join('  ');
  process.stdout.write(`\n${line(headers)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  for (const c of cells) process.stdout.write(`${line(c)}\n`);
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
