import { signatureHeaders } from '@pp/contracts';
import { receivedNow, type TestStack } from '@pp/testing';
import type { GatewayApi } from './api';
import type { ProcessCpu } from './process-cpu';
import { measureWebhookFanout } from './webhook-fanout';

const SECRET = 'whsec_bench_fanout_spec';

/**
 * The fan-out path against stand-ins: a gateway whose calls answer at once (simulate-payment may fail), a stack whose
 * webhooks service, once started, posts one signed delivery of each event to the endpoint, and a CPU reader that
 * notes when it samples. The receiver is the bench's own (a loopback server).
 */
function fakes({ simulateFails = false } = {}) {
  const calls: string[] = [];
  const samples: number[] = [];
  let endpointUrl = '';
  let session = 0;
  const api = (async (path: string, body?: { url?: string }, method?: string) => {
    if (method === 'DELETE') {
      calls.push(`delete ${path}`);
      return {};
    }
    if (path === '/v1/webhook_endpoints') {
      endpointUrl = body?.url ?? '';
      return { id: 'we_1', secret: SECRET };
    }
    if (path === '/v1/checkout/sessions') return { id: `cs_${session++}`, memo: 'PP-TEST01' };
    if (path === '/v1/sandbox/simulate-payment' && simulateFails) throw new Error('POST /v1/sandbox/simulate-payment answered 500: {}');
    return {};
  }) as unknown as GatewayApi;
  const deliver = async (eventId: string) => {
    const rawBody = Buffer.from(JSON.stringify({ id: eventId, type: 'payment.confirmed' }));
    const headers = signatureHeaders(eventId, rawBody, [SECRET], Math.floor(Date.now() / 1000));
    await fetch(endpointUrl, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: rawBody });
  };
  const stack = {
    stopService: async (service: string) => void calls.push(`stop ${service}`),
    startService: async (service: string) => {
      calls.push(`start ${service}`);
      // The backlog's two events (one payment, one endpoint), delivered a little after the service is up.
      setTimeout(() => void Promise.all([deliver('evt_1'), deliver('evt_2')]).catch(() => undefined), 50); // the receiver may be gone
    },
    sql: async () => ({ query: async () => ({ rows: [{ published: true }] }) }),
  } as unknown as TestStack;
  const cpu = {
    sample: async () => {
      samples.push(receivedNow());
      return new Map();
    },
    scrapeServices: async () => new Map(),
  } as unknown as ProcessCpu;
  return { api, stack, cpu, calls, samples };
}

describe("the bench's webhook fan-out (webhook-fanout.ts)", () => {
  it('given a failure while the webhooks service is stopped, then it is started again, and the path fails with that failure', async () => {
    const { api, stack, cpu, calls } = fakes({ simulateFails: true });

    await expect(measureWebhookFanout(stack, api, cpu, 1, 1)).rejects.toThrow('simulate-payment answered 500');

    expect(calls).toEqual(['stop webhooks', 'start webhooks', 'delete /v1/webhook_endpoints/we_1']);
  });

  it('given the backlog delivered, then its CPU window closes as the wait ends, with no settle second, as the fan-out was always measured', async () => {
    const { api, stack, cpu, calls, samples } = fakes();

    const { result } = await measureWebhookFanout(stack, api, cpu, 1, 1, { timeoutMs: 5000 });

    expect(calls).toEqual(['stop webhooks', 'start webhooks', 'delete /v1/webhook_endpoints/we_1']);
    expect(result).toMatchObject({ deliveries: 2, verified_deliveries: 2, expected_deliveries: 2, unverified: 0 });
    // Opened as the service started; the deliveries came 50 ms later, found by the wait's 20 ms polls. With
    // CpuWindow's default settle the last sample would come a second after that.
    expect(samples).toHaveLength(2);
    expect(samples[1] - samples[0]).toBeLessThan(700);
  });
});
