import { randomUUID } from 'node:crypto';
import type { TestStack } from '@pp/testing';
import type { IssuedApiKeyView, ProvisionedMerchantView } from '../identity/identity.views';

export interface CallOptions {
  method?: string;
  /** Bearer credential; omitted when undefined. */
  token?: string;
  /** Sent as JSON unless a string (sent as is). */
  body?: unknown;
  /** Defaults to a fresh UUID on POST; null sends none. */
  idempotencyKey?: string | null;
  headers?: Record<string, string>;
}

export interface CallResult<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** HTTP calls to a TestStack's gateway, for the gateway's own tests. */
export class GatewayClient {
  constructor(private readonly stack: TestStack) {}

  get adminToken(): string {
    return this.stack.env.ADMIN_TOKEN!;
  }

  async call<T = unknown>(path: string, options: CallOptions = {}): Promise<CallResult<T>> {
    const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
    const idempotencyKey = options.idempotencyKey === undefined ? (method === 'POST' ? randomUUID() : null) : options.idempotencyKey;
    if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey;
    const response = await fetch(`${this.stack.url('gateway')}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
    });
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: response.status, headers: response.headers, body: body as T, text };
  }

  /** A fresh merchant with its four default keys. */
  async createMerchant(name = 'Test Merchant'): Promise<ProvisionedMerchantView> {
    const result = await this.call<ProvisionedMerchantView>('/v1/admin/merchants', {
      token: this.adminToken,
      body: { name, email: `${randomUUID()}@example.com` },
    });
    if (result.status !== 201) throw new Error(`creating a merchant answered ${result.status}: ${result.text}`);
    return result.body;
  }

  async issueKey(merchantId: string, spec: Record<string, unknown>): Promise<IssuedApiKeyView> {
    const result = await this.call<IssuedApiKeyView>(`/v1/admin/merchants/${merchantId}/keys`, { token: this.adminToken, body: spec });
    if (result.status !== 201) throw new Error(`issuing a key answered ${result.status}: ${result.text}`);
    return result.body;
  }

  async revokeKey(keyId: string): Promise<void> {
    const result = await this.call(`/v1/admin/keys/${keyId}`, { method: 'DELETE', token: this.adminToken });
    if (result.status !== 200) throw new Error(`revoking a key answered ${result.status}: ${result.text}`);
  }
}
