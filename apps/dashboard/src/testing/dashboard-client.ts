import { randomUUID } from 'node:crypto';
import { buildNotice, signEmail, type TestStack } from '@pp/testing';

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** The 201 body of POST /v1/admin/merchants, as far as these tests read it. */
export interface ProvisionedMerchant {
  merchant_id: string;
  keys: { live_secret: string; test_secret: string; live_publishable: string; test_publishable: string };
  dashboard_user: { id: string; email: string; role: string; password: string };
}

async function answer<T>(response: Response): Promise<Answer<T>> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as T };
}

/** The merchant API of a TestStack's gateway (these tests' way to set the scene, as a merchant's server would). */
export class GatewayApi {
  constructor(private readonly stack: TestStack) {}

  async call<T>(path: string, token: string, body?: unknown, method = body === undefined ? 'GET' : 'POST'): Promise<Answer<T>> {
    const response = await fetch(`${this.stack.url('gateway')}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), 'idempotency-key': randomUUID() },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return answer<T>(response);
  }

  async createMerchant(name: string): Promise<ProvisionedMerchant> {
    const created = await this.call<ProvisionedMerchant>('/v1/admin/merchants', this.stack.env.ADMIN_TOKEN!, { name, email: `${randomUUID()}@example.com` });
    if (created.status !== 201) throw new Error(`creating a merchant answered ${created.status}`);
    return created.body;
  }

  /**
   * A signed notice paying a new live session of `merchant`, sent to `recipient` (an address no merchant has, so
   * ingest quarantines it), posted as the mail relay does. Needs the stack's ingest with the test DKIM key's DNS.
   */
  async postNoticeTo(merchant: ProvisionedMerchant, recipient: string): Promise<{ id: string; session: { id: string; memo: string } }> {
    const session = await this.createSession(merchant, {}, merchant.keys.live_secret);
    const raw = await signEmail(
      buildNotice({ to: recipient, message: session.memo, amount: '$25.00', messageId: `<q${randomUUID()}@payments.interac.ca>`, reference: `C1A${randomUUID().slice(0, 8)}` }),
    );
    const submitted = await fetch(`${this.stack.url('gateway')}/v1/internal/ingest-email`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.stack.env.INGEST_TOKEN}`, 'content-type': 'message/rfc822' },
      body: raw,
    });
    if (submitted.status !== 202) throw new Error(`posting a notice answered ${submitted.status}`);
    const { id } = (await submitted.json()) as { id: string };
    return { id, session };
  }

  async createSession(merchant: ProvisionedMerchant, extra: Record<string, unknown> = {}, key = merchant.keys.test_secret): Promise<{ id: string; reference: string; memo: string }> {
    const created = await this.call<{ id: string; reference: string; memo: string }>('/v1/checkout/sessions', key, {
      amount: 2500,
      currency: 'cad',
      reference: `order-${randomUUID()}`,
      success_url: 'https://shop.example/ok',
      cancel_url: 'https://shop.example/cancel',
      ...extra,
    });
    if (created.status !== 201) throw new Error(`creating a session answered ${created.status}: ${JSON.stringify(created.body)}`);
    return created.body;
  }
}

/** The answer of a sign-in and of a password change: the user and the new session's CSRF token. */
export interface SignedInBody {
  user: Record<string, unknown>;
  csrf_token: string;
  error?: string;
}

/** A browser's view of the dashboard's /api: its cookie, its CSRF token and its Origin. */
export class DashboardBrowser {
  cookie = '';
  csrfToken = '';

  constructor(
    readonly baseUrl: string,
    private readonly origin = baseUrl,
  ) {}

  login(email: string, password: string): Promise<Answer<SignedInBody>> {
    return this.signIn('/api/auth/login', { email, password });
  }

  /** A password change, the browser going on with the session it opens (its cookie and CSRF token), as after a sign-in. */
  changePassword(currentPassword: string, newPassword: string): Promise<Answer<SignedInBody>> {
    return this.signIn('/api/auth/password', { current_password: currentPassword, new_password: newPassword });
  }

  private async signIn(path: string, body: unknown): Promise<Answer<SignedInBody>> {
    const result = await this.post<SignedInBody>(path, body);
    const cookie = result.headers.get('set-cookie');
    if (cookie) this.cookie = cookie.split(';')[0];
    if (result.status === 200) this.csrfToken = result.body.csrf_token;
    return result;
  }

  async get<T>(path: string): Promise<Answer<T>> {
    return answer<T>(await fetch(`${this.baseUrl}${path}`, { headers: { cookie: this.cookie } }));
  }

  /** A new Idempotency-Key for each POST, as the web app makes one per action; `{ 'idempotency-key': undefined }` sends none. */
  post<T>(path: string, body: unknown = {}, headers: Record<string, string | undefined> = {}): Promise<Answer<T>> {
    return this.request<T>('POST', path, body, { 'idempotency-key': randomUUID(), ...headers });
  }

  async request<T>(method: string, path: string, body: unknown = {}, headers: Record<string, string | undefined> = {}): Promise<Answer<T>> {
    const sent = Object.entries(headers).filter((header): header is [string, string] => header[1] !== undefined);
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { cookie: this.cookie, origin: this.origin, 'content-type': 'application/json', 'x-csrf-token': this.csrfToken, ...Object.fromEntries(sent) },
      body: JSON.stringify(body),
    });
    return answer<T>(response);
  }
}

/**
 * For specs: adds a user of `role` to the merchant with its owner's password (the hash copied, so no scrypt run),
 * and answers a browser signed in as it.
 */
export async function signInAsNewUser(stack: TestStack, merchant: ProvisionedMerchant, role: string): Promise<DashboardBrowser> {
  const email = `${role}-${randomUUID().slice(0, 8)}@example.com`;
  await (await stack.sql()).query(
    `INSERT INTO gateway.dashboard_users (id, merchant_id, email, password_hash, role)
     SELECT $1, merchant_id, $2, password_hash, $3 FROM gateway.dashboard_users WHERE id = $4`,
    [`usr_${role}${randomUUID().replace(/-/g, '').slice(0, 12)}`, email, role, merchant.dashboard_user.id],
  );
  const browser = new DashboardBrowser(stack.url('dashboard'));
  const signedIn = await browser.login(email, merchant.dashboard_user.password);
  if (signedIn.status !== 200) throw new Error(`${role} could not sign in: ${signedIn.status}`);
  return browser;
}
