import Fastify from 'fastify';
import { serveHttpMetrics } from './http-metrics';
import { ServiceMetrics } from './service-metrics';

describe('HTTP metrics of a web app', () => {
  describe('given requests to a route with a parameter, an unknown path and the metrics route itself', () => {
    it('then they are counted by route template and status, never by raw URL, and scrapes are not counted', async () => {
      const app = Fastify();
      const metrics = new ServiceMetrics('gateway', { processMetrics: false });
      serveHttpMetrics(app, metrics);
      app.get('/v1/things/:id', async (request, reply) => reply.code((request.params as { id: string }).id === 'missing' ? 404 : 200).send({}));
      await app.inject({ method: 'GET', url: '/v1/things/cs_abc123' });
      await app.inject({ method: 'GET', url: '/v1/things/cs_def456?expand=1' });
      await app.inject({ method: 'GET', url: '/v1/things/missing' });
      await app.inject({ method: 'GET', url: '/wp-admin/cs_ghi789' });
      await app.inject({ method: 'GET', url: '/metrics' });

      const scrape = await app.inject({ method: 'GET', url: '/metrics' });
      expect(scrape.statusCode).toBe(200);
      expect(scrape.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      const requests = scrape.body.split('\n').filter((line) => line.startsWith('pp_http_requests_total{'));
      expect(requests.sort()).toEqual([
        'pp_http_requests_total{route="/v1/things/:id",method="GET",status="200",service="gateway"} 2',
        'pp_http_requests_total{route="/v1/things/:id",method="GET",status="404",service="gateway"} 1',
        'pp_http_requests_total{route="unmatched",method="GET",status="404",service="gateway"} 1',
      ]);
      expect(scrape.body).toContain('pp_http_request_duration_seconds_count{service="gateway",route="/v1/things/:id",method="GET"} 3');
      expect(scrape.body).not.toMatch(/cs_|wp-admin/);
      await app.close();
    });
  });
});
