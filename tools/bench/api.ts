import { randomUUID } from 'node:crypto';

/** How long one call to the gateway may take, its answer's body included, before it fails: a stuck call fails its path instead of hanging the run. */
export const API_TIMEOUT_MS = 30_000;

/**
 * JSON calls to the gateway for the bench's set-up (fresh Idempotency-Key per POST); throws on a non-2xx
 * answer, and when the whole answer has not arrived within API_TIMEOUT_MS.
 */
export function gatewayApi(gatewayUrl: string, token: string) {
  return async <T = Record<string, unknown>>(path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST'): Promise<T> => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method === 'POST') headers['idempotency-key'] = randomUUID();
    // One signal for the request and the body read after it.
    const signal = AbortSignal.timeout(API_TIMEOUT_MS);
    try {
      const response = await fetch(`${gatewayUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
      if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as T;
    } catch (error) {
      if (signal.aborted) throw new Error(`${method} ${path}: no whole answer within ${API_TIMEOUT_MS / 1000} s`, { cause: error });
      throw error;
    }
  };
}

export type GatewayApi = ReturnType<typeof gatewayApi>;

export interface BenchMerchant {
  merchant_id: string;
  keys: { test_secret: string; live_secret: string };
}

export async function createMerchant(gatewayUrl: string, adminToken: string, name: string): Promise<BenchMerchant> {
  return gatewayApi(gatewayUrl, adminToken)<BenchMerchant>('/v1/admin/merchants', { name, email: `bench-${randomUUID()}@example.com` });
}

/** Runs `task` over `items` with at most `concurrency` at a time. */
export async function inParallel<T, R>(items: readonly T[], concurrency: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await task(items[i], i);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

/** A checkout session as the bench uses it. */
export interface BenchSession {
  id: string;
  memo: string;
}

/**
 * `count` checkout sessions of CAD 10.00, 10.01, … (so that each one's
 * payment or notice carries an amount of its own), 16 created at a time.
 */
export function createSessions(api: GatewayApi, count: number, referencePrefix: string): Promise<BenchSession[]> {
  return inParallel(Array.from({ length: count }), 16, (_, i) =>
    api<BenchSession>('/v1/checkout/sessions', {
      amount: 1000 + i,
      currency: 'cad',
      reference: `${referencePrefix}-${i}`,
      success_url: 'https://merchant.example/thanks',
      cancel_url: 'https://merchant.example/cart',
    }),
  );
}
