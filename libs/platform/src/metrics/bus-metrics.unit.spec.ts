import { ErrorCode } from '@pp/contracts';
import { BUS_OUTCOMES, BusMetrics, busOutcome } from './bus-metrics';
import { BUS_REQUESTS } from './metric-catalog';
import { ServiceMetrics } from './service-metrics';

describe('bus metrics', () => {
  describe('given replies', () => {
    it('then the outcome is ok, a known error code, or INTERNAL for a code no service sends', () => {
      expect(busOutcome({ ok: true })).toBe('ok');
      expect(busOutcome({ ok: false, error: { code: ErrorCode.NotFound } })).toBe('NOT_FOUND');
      expect(busOutcome({ ok: false, error: { code: 'evt_1234 made up' } })).toBe('INTERNAL');
    });
  });

  describe('given the outcomes a served request is counted under besides an error code', () => {
    it.each(Object.values(BUS_OUTCOMES))('then the HELP of pp_bus_requests_total names %s', (outcome) => {
      expect(BUS_REQUESTS.help).toMatch(new RegExp(`\\b${outcome}\\b`));
    });
  });

  describe('given requests served, expired and sent', () => {
    it('then each is counted under its subject and outcome, and only answered ones are timed', async () => {
      const metrics = new ServiceMetrics('ledger', { processMetrics: false });
      const bus = new BusMetrics(metrics);
      bus.answered('ledger.append.v1', 'ok', 4);
      bus.answered('ledger.append.v1', 'CONFLICT', 2);
      bus.expired('ledger.append.v1');
      bus.called('identity.merchant-profile.v1', 'SERVICE_UNAVAILABLE', 5000);
      const text = await metrics.text();
      expect(text).toContain('pp_bus_requests_total{subject="ledger.append.v1",outcome="ok",service="ledger"} 1');
      expect(text).toContain('pp_bus_requests_total{subject="ledger.append.v1",outcome="CONFLICT",service="ledger"} 1');
      expect(text).toContain('pp_bus_requests_total{subject="ledger.append.v1",outcome="expired",service="ledger"} 1');
      expect(text).toContain('pp_bus_request_duration_seconds_count{service="ledger",subject="ledger.append.v1"} 2');
      expect(text).toContain('pp_bus_request_duration_seconds_sum{service="ledger",subject="ledger.append.v1"} 0.006');
      expect(text).toContain('pp_bus_client_requests_total{subject="identity.merchant-profile.v1",outcome="SERVICE_UNAVAILABLE",service="ledger"} 1');
      expect(text).toContain('pp_bus_client_request_duration_seconds_bucket{le="5",service="ledger",subject="identity.merchant-profile.v1"} 1');
    });
  });
});
