import { WebhookDeliveryStatus } from '@pp/contracts';
import { ServiceMetrics } from '@pp/platform';
import { DeliveryMetrics, responseClass } from './delivery.metrics';

describe('webhook delivery metrics', () => {
  describe('given answers and their absence', () => {
    it('then the response label is the status class, or none', () => {
      expect([200, 204, 301, 410, 503, null, 0, 999].map(responseClass)).toEqual(['2xx', '2xx', '3xx', '4xx', '5xx', 'none', 'none', 'none']);
    });
  });

  describe('given a success, a retry, and a 410 that disables its endpoint', () => {
    it('then attempts are counted by outcome and response, and the endpoint by why it was disabled', async () => {
      const metrics = new ServiceMetrics('webhooks', { processMetrics: false });
      const deliveries = new DeliveryMetrics(metrics);
      deliveries.attempted({ status: WebhookDeliveryStatus.Success, nextAttemptAt: null, disableEndpoint: null }, 200, 12);
      deliveries.attempted({ status: WebhookDeliveryStatus.Failed, nextAttemptAt: new Date(), disableEndpoint: null }, null, 10_000);
      deliveries.attempted({ status: WebhookDeliveryStatus.Exhausted, nextAttemptAt: null, disableEndpoint: 'endpoint answered 410 Gone' }, 410, 8);
      deliveries.endpointDisabled(410);
      const text = await metrics.text();
      expect(text).toContain('pp_webhook_attempts_total{outcome="success",response="2xx",service="webhooks"} 1');
      expect(text).toContain('pp_webhook_attempts_total{outcome="retry",response="none",service="webhooks"} 1');
      expect(text).toContain('pp_webhook_attempts_total{outcome="exhausted",response="4xx",service="webhooks"} 1');
      expect(text).toContain('pp_webhook_endpoints_disabled_total{reason="gone",service="webhooks"} 1');
      expect(text).toContain('pp_webhook_attempt_duration_seconds_count{service="webhooks"} 3');
    });
  });

  describe('given an attempt made without being sent (held back too long for a slow endpoint)', () => {
    it('then it is counted with response not_sent, and takes no part in the attempts\' durations', async () => {
      const metrics = new ServiceMetrics('webhooks', { processMetrics: false });
      new DeliveryMetrics(metrics).notSent({ status: WebhookDeliveryStatus.Failed, nextAttemptAt: new Date(), disableEndpoint: null });
      const text = await metrics.text();
      expect(text).toContain('pp_webhook_attempts_total{outcome="retry",response="not_sent",service="webhooks"} 1');
      expect(text).toContain('pp_webhook_attempt_duration_seconds_count{service="webhooks"} 0');
    });
  });
  describe('given a fresh registry', () => {
    it('then pp_webhook_attempts_total{outcome="exhausted",response="none"} is exported at 0', async () => {
      const metrics = new ServiceMetrics('webhooks', { processMetrics: false });
      new DeliveryMetrics(metrics);
      const text = await metrics.text();
      expect(text).toContain('pp_webhook_attempts_total{outcome="exhausted",response="none",service="webhooks"} 0\n');
      expect(text.match(/^pp_webhook_attempts_total\{.*\} 0$/gm)).toHaveLength(3 * 7);
    });
  });
});
