import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { SERVICE_NAMES, type ServiceName } from '../services';
import { CHECKOUT_PAGE_ACCESS } from '../checkout-page/checkout-page.access';
import { CHECKOUT_SESSION_ACCESS } from '../checkout-sessions/checkout-session.access';
import { IDENTITY_ACCESS } from '../identity/identity.access';
import { INGEST_ACCESS } from '../ingest/ingest.access';
import { LEDGER_ACCESS } from '../ledger/ledger.access';
import { MERCHANT_EVENT_ACCESS } from '../merchant-events/merchant-events.access';
import { PAYMENT_ACCESS } from '../payments/payments.access';
import { REFUND_ACCESS } from '../refunds/refunds.access';
import { WEBHOOK_ACCESS } from '../webhooks/webhooks.access';
import { SUBJECT_REGISTRY } from './subject-registry';

/*
 * The registry must say what the code does: each @Handles subject is served by
 * the service the registry names, each subject a service's code sends is
 * allowed to it, and no service is allowed a subject its code never sends
 * (a stale grant is a permission nobody reviews).
 */

const apps = join(__dirname, '..', '..', '..', '..', 'apps');
/** The aggregate runtime sends the ledger's stream subjects for each service that wires it in (aggregateRuntime, naming its append subject there). */
const aggregateRuntime = join(__dirname, '..', '..', '..', 'platform', 'src', 'aggregate');
const SUBJECT_LITERAL = /'([a-z][a-z-]*(?:\.[a-z-]+)+\.v1)'/g;
const PATTERN = /@Handles\(\s*'([^']+)'/g;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'testing' ? [] : sources(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

const code = SERVICE_NAMES.map((service) => {
  const own = sources(join(apps, service, 'src')).map((path) => ({ path: relative(apps, path), text: readFileSync(path, 'utf8') }));
  const runtime = own.some((f) => f.text.includes('aggregateRuntime(')) ? sources(aggregateRuntime).map((path) => ({ path, text: readFileSync(path, 'utf8') })) : [];
  const files = [...own, ...runtime];
  const served = files.flatMap((f) => [...f.text.matchAll(PATTERN)].map((m) => m[1]));
  const named = files.flatMap((f) => [...f.text.matchAll(SUBJECT_LITERAL)].map((m) => m[1]));
  const untyped = files.filter((f) => f.text.includes('@MessagePattern(')).map((f) => f.path);
  return { service, served: new Set(served), sent: new Set(named.filter((subject) => !served.includes(subject))), untyped };
});

describe('the subject registry', () => {
  it('has each subject in exactly one domain’s entries', () => {
    const domains = [CHECKOUT_PAGE_ACCESS, CHECKOUT_SESSION_ACCESS, IDENTITY_ACCESS, INGEST_ACCESS, LEDGER_ACCESS, MERCHANT_EVENT_ACCESS, PAYMENT_ACCESS, REFUND_ACCESS, WEBHOOK_ACCESS];
    const all = domains.flatMap((domain) => Object.keys(domain));
    expect(all.length).toBe(new Set(all).size);
    expect(all.sort()).toEqual(Object.keys(SUBJECT_REGISTRY).sort());
  });

  it.each(SERVICE_NAMES)('names %s as the server of every @Handles subject in its code', (service) => {
    const { served } = code.find((c) => c.service === service)!;
    for (const subject of served) expect({ subject, servedBy: SUBJECT_REGISTRY[subject as keyof typeof SUBJECT_REGISTRY]?.servedBy }).toEqual({ subject, servedBy: service });
  });

  it.each(SERVICE_NAMES)('has %s serve through @Handles only, which the compiler checks against SubjectMap', (service) => {
    expect(code.find((c) => c.service === service)!.untyped).toEqual([]);
  });

  it.each(SERVICE_NAMES)('allows %s every subject its code sends, and nothing it never sends', (service) => {
    const { sent } = code.find((c) => c.service === service)!;
    const allowed = Object.entries(SUBJECT_REGISTRY)
      .filter(([, access]) => (access.callers as readonly ServiceName[]).includes(service))
      .map(([subject]) => subject);
    expect(allowed.sort()).toEqual([...sent].sort());
  });

  it('has a server in the code for every subject it lists', () => {
    for (const [subject, access] of Object.entries(SUBJECT_REGISTRY)) {
      expect({ subject, served: code.find((c) => c.service === access.servedBy)!.served.has(subject) }).toEqual({ subject, served: true });
    }
  });
});
